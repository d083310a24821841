# pitfall: linear-parameters-only
"""Wrong: only the parameters of the nn.Linear modules are checked, so a PReLU's slopes are left out of nonfinite and unscaled_norm."""
import math
from typing import Any, Dict, List

import torch
import torch.nn as nn


class Solution:
    def scaler_trace(self, found_inf: List[int], init_scale: float, growth_factor: float, backoff_factor: float,
                     growth_interval: int) -> Dict[str, Any]:
        """Replay torch.amp.GradScaler.update: record the scale in effect at each step, then update it."""
        scale, tracker = float(init_scale), 0
        scales, skipped, applied = [], 0, 0
        for overflow in found_inf:
            scales.append(scale)
            if overflow:
                skipped += 1
                scale *= backoff_factor
                tracker = 0
            else:
                applied += 1
                tracker += 1
                if tracker == growth_interval:
                    scale *= growth_factor
                    tracker = 0
        return {"scales": [round(s, 4) for s in scales], "final_scale": round(scale, 4),
                "skipped": skipped, "applied": applied}

    def unscale_check(self, model: nn.Module, scale: float) -> Dict[str, Any]:
        """Names of the parameters whose scaled .grad holds an inf or a NaN, the L2 norm of the other gradients
        divided by the scale (a parameter with any non-finite entry is left out whole; None grads are skipped),
        and whether the optimizer step must be skipped."""
        nonfinite, squares = [], 0.0
        linear_params = [(f'{m_name}.{p_name}', p) for m_name, m in model.named_modules() if isinstance(m, nn.Linear)
                         for p_name, p in m.named_parameters()]
        for name, p in linear_params:
            g = p.grad
            if g is None:
                continue
            if not bool(torch.isfinite(g).all()):
                nonfinite.append(name)
                continue
            squares += torch.linalg.vector_norm(g / scale).item() ** 2
        return {"nonfinite": nonfinite, "unscaled_norm": round(math.sqrt(squares), 4),
                "action": "skip_step" if nonfinite else "step"}
