# pitfall: gradient-std-rule
from typing import Dict, List

import torch
import torch.nn as nn


def _r(t: torch.Tensor) -> float:
    return round(t.item(), 4)


class Solution:
    def compute_activation_stats(self, model: nn.Module, x: torch.Tensor) -> List[Dict[str, float]]:
        stats = []
        with torch.no_grad():
            for layer in model.children():
                x = layer(x)
                if isinstance(layer, nn.Linear):
                    if x.dim() >= 2:
                        dead = (x <= 0).all(dim=0).float().mean()
                    else:
                        dead = (x <= 0).float().mean()
                    stats.append({'mean': _r(x.mean()), 'std': _r(x.std()), 'dead_fraction': _r(dead)})
        return stats

    def compute_gradient_stats(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> List[Dict[str, float]]:
        model.zero_grad()
        loss = nn.MSELoss()(model(x), y)
        loss.backward()
        stats = []
        for layer in model.children():
            if isinstance(layer, nn.Linear):
                g = layer.weight.grad
                stats.append({'mean': _r(g.mean()), 'std': _r(g.std()), 'norm': _r(torch.norm(g))})
        return stats

    def diagnose(self, activation_stats: List[Dict[str, float]], gradient_stats: List[Dict[str, float]]) -> str:
        if any(s['dead_fraction'] > 0.5 for s in activation_stats):
            return 'dead_neurons'
        if any(s['norm'] > 1000 for s in gradient_stats):
            return 'exploding_gradients'
        if gradient_stats and gradient_stats[-1]['norm'] < 1e-5:
            return 'vanishing_gradients'
        for s in gradient_stats:
            if s['std'] < 0.1:
                return 'vanishing_gradients'
            if s['std'] > 10.0:
                return 'exploding_gradients'
        return 'healthy'
