"""Accepted: the trace in pure Python, counting good steps since the last change with a modulo; the check in
NumPy (np.isfinite on every gradient, the squares summed with math.fsum)."""
import math
from typing import Any, Dict, List

import numpy as np
import torch.nn as nn


class Solution:
    def scaler_trace(self, found_inf: List[int], init_scale: float, growth_factor: float, backoff_factor: float,
                     growth_interval: int) -> Dict[str, Any]:
        scale, good_run, scales = init_scale * 1.0, 0, []
        for flag in found_inf:
            scales.append(scale)
            if flag:
                scale, good_run = scale * backoff_factor, 0
            else:
                good_run += 1
                if good_run % growth_interval == 0:
                    scale *= growth_factor
        skipped = int(np.count_nonzero(found_inf)) if found_inf else 0
        return {"scales": scales, "final_scale": scale, "skipped": skipped, "applied": len(found_inf) - skipped}

    def unscale_check(self, model: nn.Module, scale: float) -> Dict[str, Any]:
        nonfinite, squares = [], []
        for name, p in model.named_parameters():
            if p.grad is None:
                continue
            g = p.grad.detach().cpu().numpy().astype(np.float64).ravel()
            if not np.isfinite(g).all():
                nonfinite.append(name)
                continue
            squares.extend((g / scale) ** 2)
        return {"nonfinite": nonfinite, "unscaled_norm": math.sqrt(math.fsum(squares)),
                "action": "skip_step" if nonfinite else "step"}
