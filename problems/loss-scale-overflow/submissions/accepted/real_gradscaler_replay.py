"""Accepted: a real torch.amp.GradScaler on the CPU, driven through scale / step / update with a one-parameter
optimizer whose gradient is inf on the overflowing steps; the check uses torch.isfinite and torch.linalg.vector_norm
over the stacked per-parameter norms."""
from typing import Any, Dict, List

import torch
import torch.nn as nn


class Solution:
    def scaler_trace(self, found_inf: List[int], init_scale: float, growth_factor: float, backoff_factor: float,
                     growth_interval: int) -> Dict[str, Any]:
        scaler = torch.amp.GradScaler("cpu", init_scale=init_scale, growth_factor=growth_factor,
                                      backoff_factor=backoff_factor, growth_interval=growth_interval)
        weight = nn.Parameter(torch.zeros(1))
        optimizer = torch.optim.SGD([weight], lr=0.0)
        scales, skipped = [], 0
        for flag in found_inf:
            scaler.scale(torch.ones(()))  # what a training step multiplies its loss by
            scales.append(scaler.get_scale())
            weight.grad = torch.full((1,), float("inf") if flag else 1.0)
            scaler.step(optimizer)
            skipped += int(sum(v.item() for v in scaler._found_inf_per_device(optimizer).values()) > 0)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)
        final = scaler.get_scale() if found_inf else float(init_scale)
        return {"scales": scales, "final_scale": final, "skipped": skipped, "applied": len(found_inf) - skipped}

    def unscale_check(self, model: nn.Module, scale: float) -> Dict[str, Any]:
        present = [(n, p.grad) for n, p in model.named_parameters() if p.grad is not None]
        nonfinite = [n for n, g in present if not torch.isfinite(g).all()]
        norms = [torch.linalg.vector_norm(g / scale) for n, g in present if n not in nonfinite]
        norm = torch.linalg.vector_norm(torch.stack(norms)).item() if norms else 0.0
        return {"nonfinite": nonfinite, "unscaled_norm": norm, "action": "skip_step" if nonfinite else "step"}
