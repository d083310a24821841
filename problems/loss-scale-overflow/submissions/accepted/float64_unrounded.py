"""Accepted: plain loops in float64, nothing rounded; inf and NaN looked for separately (isinf | isnan)."""
from typing import Any, Dict, List

import torch
import torch.nn as nn


class Solution:
    def scaler_trace(self, found_inf: List[int], init_scale: float, growth_factor: float, backoff_factor: float,
                     growth_interval: int) -> Dict[str, Any]:
        scale = float(init_scale)
        tracker = 0
        out = {"scales": [], "final_scale": 0.0, "skipped": 0, "applied": 0}
        for t in range(len(found_inf)):
            out["scales"].append(scale)
            if found_inf[t] != 0:
                out["skipped"] += 1
                scale = scale * backoff_factor
                tracker = 0
                continue
            out["applied"] += 1
            tracker += 1
            if tracker == growth_interval:
                scale = scale * growth_factor
                tracker = 0
        out["final_scale"] = scale
        return out

    def unscale_check(self, model: nn.Module, scale: float) -> Dict[str, Any]:
        bad = []
        total = torch.zeros((), dtype=torch.float64)
        for name, p in model.named_parameters():
            if p.grad is None:
                continue
            g = p.grad.detach().to(torch.float64)
            if (torch.isinf(g) | torch.isnan(g)).any():
                bad.append(name)
            else:
                total += ((g / scale) ** 2).sum()
        return {"nonfinite": bad, "unscaled_norm": total.sqrt().item(), "action": "skip_step" if bad else "step"}
