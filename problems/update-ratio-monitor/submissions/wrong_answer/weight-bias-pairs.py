# pitfall: weight-bias-pairs
"""Wrong: the weights are taken as every other parameter (weight, bias, weight, bias, ...), which holds only while every layer with parameters is an nn.Linear with a bias."""
import math
from typing import Any, Dict, List

import torch
import torch.nn as nn

RATIO_FLOOR = 1e-12


def _optimizer(params, spec: Dict[str, Any]) -> torch.optim.Optimizer:
    """torch.optim.SGD / Adam / AdamW configured from every key of the spec (none left to its default)."""
    if spec['name'] == 'sgd':
        return torch.optim.SGD(params, lr=spec['lr'], momentum=spec['momentum'], nesterov=spec['nesterov'],
                               weight_decay=spec['weight_decay'])
    cls = torch.optim.Adam if spec['name'] == 'adam' else torch.optim.AdamW
    return cls(params, lr=spec['lr'], betas=tuple(spec['betas']), eps=spec['eps'], weight_decay=spec['weight_decay'])


class Solution:
    def step_ratios(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor,
                    optimizer: Dict[str, Any]) -> List[Dict[str, float]]:
        model.zero_grad()
        nn.MSELoss()(model(x), y).backward()
        weights = list(model.parameters())[::2]
        before = [w.detach().clone() for w in weights]
        grad_norms = [w.grad.norm().item() for w in weights]
        _optimizer(model.parameters(), optimizer).step()
        rows = []
        for w, w0, g in zip(weights, before, grad_norms):
            weight_norm = w0.norm().item()
            update_norm = (w.detach() - w0).norm().item()
            ratio = math.log10(max(update_norm / weight_norm, RATIO_FLOOR))
            rows.append({'weight_norm': round(weight_norm, 4), 'grad_norm': round(g, 4),
                         'update_norm': round(update_norm, 4), 'log10_ratio': round(ratio, 4)})
        return rows

    def lr_advice(self, log10_ratios: List[float]) -> str:
        if not log10_ratios:
            return 'ok'
        if any(r > -2.0 for r in log10_ratios):
            return 'lr_too_high'
        if all(r < -4.0 for r in log10_ratios):
            return 'lr_too_low'
        if max(log10_ratios) - min(log10_ratios) > 2.0:
            return 'unbalanced_layers'
        return 'ok'
