"""Accepted: torch.nn.utils.clip_grad_norm_ does the clipping; the norms are read back from the clipped .grad."""
from typing import Any, Dict, List

import torch
import torch.nn as nn


class Solution:
    def _backward(self, model, x, y):
        model.zero_grad()
        nn.MSELoss()(model(x), y).backward()
        return [p for p in model.parameters() if p.grad is not None]

    def clip_report(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, max_norm: float) -> Dict[str, Any]:
        params = self._backward(model, x, y)
        before = [p.grad.norm().item() for p in params]
        total = nn.utils.clip_grad_norm_(params, max_norm).item()
        after = [p.grad.norm().item() for p in params]
        coef = min(1.0, max_norm / (total + 1e-6))
        return {"total_norm": total, "clip_coef": coef, "clipped_total_norm": sum(a * a for a in after) ** 0.5,
                "param_norms": before, "clipped_param_norms": after}

    def clip_per_layer(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, max_norm: float) -> List[float]:
        self._backward(model, x, y)
        out = []
        for layer in model.children():
            if isinstance(layer, nn.Linear):
                nn.utils.clip_grad_norm_(layer.parameters(), max_norm)
                out.append(torch.stack([p.grad.norm() for p in layer.parameters()]).norm().item())
        return out

    def advise_threshold(self, total_norms: List[float], max_norm: float) -> str:
        if len(total_norms) == 0:
            return "keep"
        clipped = [n for n in total_norms if n > max_norm]
        if 2 * len(clipped) > len(total_norms):
            return "raise_threshold"
        if not clipped and max(total_norms) * 10 < max_norm:
            return "lower_threshold"
        return "keep"
