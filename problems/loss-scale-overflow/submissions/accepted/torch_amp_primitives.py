"""Accepted: PyTorch's own kernels. The trace steps torch._amp_update_scale_ (the kernel GradScaler.update runs)
on a float32 scale tensor; the check unscales every gradient in place with
torch._amp_foreach_non_finite_check_and_unscale_ (which flags a parameter with any inf or NaN) and measures the
finite ones with torch.nn.utils.get_total_norm."""
from typing import Any, Dict, List

import torch
import torch.nn as nn


class Solution:
    def scaler_trace(self, found_inf: List[int], init_scale: float, growth_factor: float, backoff_factor: float,
                     growth_interval: int) -> Dict[str, Any]:
        scale = torch.full((1,), float(init_scale), dtype=torch.float32)
        tracker = torch.zeros((1,), dtype=torch.int32)
        scales = []
        for flag in found_inf:
            scales.append(scale.item())
            torch._amp_update_scale_(scale, tracker, torch.full((1,), float(flag)), growth_factor, backoff_factor,
                                     growth_interval)
        skipped = sum(1 for f in found_inf if f)
        return {"scales": scales, "final_scale": scale.item(), "skipped": skipped, "applied": len(found_inf) - skipped}

    def unscale_check(self, model: nn.Module, scale: float) -> Dict[str, Any]:
        inv_scale = torch.full((1,), 1.0 / scale, dtype=torch.float64)
        nonfinite, finite = [], []
        for name, p in model.named_parameters():
            if p.grad is None:
                continue
            found = torch.zeros((1,), dtype=p.grad.dtype)
            torch._amp_foreach_non_finite_check_and_unscale_([p.grad], found, inv_scale.to(p.grad.dtype))
            if found.item():
                nonfinite.append(name)
            else:
                finite.append(p.grad)
        norm = torch.nn.utils.get_total_norm(finite, norm_type=2.0).item() if finite else 0.0
        return {"nonfinite": nonfinite, "unscaled_norm": round(norm, 4),
                "action": "skip_step" if nonfinite else "step"}
