# variant: statistics computed in float64 and returned unrounded; rule table drives diagnose
from typing import Dict, List

import torch
import torch.nn as nn


class Solution:
    def compute_activation_stats(self, model: nn.Module, x: torch.Tensor) -> List[Dict[str, float]]:
        stats = []
        with torch.no_grad():
            h = x
            for layer in model.children():
                h = layer(h)
                if not isinstance(layer, nn.Linear):
                    continue
                d = h.double()
                n = d.numel()
                mean = d.sum() / n
                std = torch.sqrt(((d - mean) ** 2).sum() / (n - 1))
                cols = d.reshape(d.shape[0], -1) if d.dim() > 1 else d.reshape(1, -1)
                dead = (cols.max(dim=0).values <= 0).double().mean()
                stats.append({'mean': mean.item(), 'std': std.item(), 'dead_fraction': dead.item()})
        return stats

    def compute_gradient_stats(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> List[Dict[str, float]]:
        model.zero_grad(set_to_none=True)
        nn.functional.mse_loss(model(x), y).backward()
        stats = []
        for layer in model.children():
            if isinstance(layer, nn.Linear):
                g = layer.weight.grad.double()
                stats.append({'mean': g.mean().item(),
                              'std': g.std(correction=1).item(),
                              'norm': torch.linalg.vector_norm(g).item()})
        return stats

    RULES = [
        ('activation', lambda s: s['dead_fraction'] > 0.5, 'dead_neurons'),
        ('gradient', lambda s: s['norm'] > 1000, 'exploding_gradients'),
        ('last_gradient', lambda s: s['norm'] < 1e-5, 'vanishing_gradients'),
    ]

    def diagnose(self, activation_stats: List[Dict[str, float]], gradient_stats: List[Dict[str, float]]) -> str:
        groups = {'activation': activation_stats, 'gradient': gradient_stats,
                  'last_gradient': gradient_stats[-1:]}
        for group, test, verdict in self.RULES:
            if any(test(s) for s in groups[group]):
                return verdict
        std_rules = [(lambda v: v < 0.1, 'vanishing_gradients'), (lambda v: v > 10.0, 'exploding_gradients')]
        for s in activation_stats:
            for test, verdict in std_rules:
                if test(s['std']):
                    return verdict
        return 'healthy'
