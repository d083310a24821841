# pitfall: bias-assumed
"""Crashes: clip_per_layer reads layer.bias of every nn.Linear, which is None when the layer has no bias."""
from typing import Any, Dict, List

import torch
import torch.nn as nn


def _gradients(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> List[torch.Tensor]:
    model.zero_grad(set_to_none=True)
    nn.MSELoss()(model(x), y).backward()
    return [p.grad for _, p in model.named_parameters() if p.grad is not None]


def _coef(norm: float, max_norm: float) -> float:
    return min(1.0, max_norm / (norm + 1e-6))


class Solution:
    def clip_report(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, max_norm: float) -> Dict[str, Any]:
        norms = [g.norm().item() for g in _gradients(model, x, y)]
        total = sum(n * n for n in norms) ** 0.5
        coef = _coef(total, max_norm)
        return {
            "total_norm": round(total, 4),
            "clip_coef": round(coef, 4),
            "clipped_total_norm": round(coef * total, 4),
            "param_norms": [round(n, 4) for n in norms],
            "clipped_param_norms": [round(coef * n, 4) for n in norms],
        }

    def clip_per_layer(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, max_norm: float) -> List[float]:
        _gradients(model, x, y)
        clipped = []
        for layer in model.modules():
            if isinstance(layer, nn.Linear):
                norm = (layer.weight.grad.norm().item() ** 2 + layer.bias.grad.norm().item() ** 2) ** 0.5
                clipped.append(round(_coef(norm, max_norm) * norm, 4))
        return clipped

    def advise_threshold(self, total_norms: List[float], max_norm: float) -> str:
        if not total_norms:
            return 'keep'
        if sum(n > max_norm for n in total_norms) / len(total_norms) > 0.5:
            return 'raise_threshold'
        if all(n <= max_norm for n in total_norms) and max(total_norms) < max_norm / 10:
            return 'lower_threshold'
        return 'keep'

    def _boundaries(self, *args: Any) -> List[tuple]:
        """Author-side (judge gen, G1): the clip coefficient has a kink wherever a norm equals max_norm."""
        if len(args) != 4 or not isinstance(args[0], nn.Module):
            return []
        model, x, y, max_norm = args
        grads = _gradients(model, x, y)
        groups = [sum(p.grad.norm() ** 2 for p in layer.parameters() if p.grad is not None) ** 0.5
                  for layer in model.modules() if isinstance(layer, nn.Linear)]
        total = sum(g.norm() ** 2 for g in grads) ** 0.5
        return [(n, max_norm) for n in [total, *groups]]
