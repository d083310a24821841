# variant: forward hooks on every nn.Linear capture outputs; modules() scan for gradients
from typing import Dict, List

import torch
import torch.nn as nn


class Solution:
    def compute_activation_stats(self, model: nn.Module, x: torch.Tensor) -> List[Dict[str, float]]:
        outputs = []
        handles = [m.register_forward_hook(lambda mod, inp, out: outputs.append(out.detach()))
                   for m in model.children() if isinstance(m, nn.Linear)]
        try:
            with torch.no_grad():
                model(x)
        finally:
            for h in handles:
                h.remove()
        stats = []
        for out in outputs:
            nonpos = out <= 0
            dead = nonpos.all(dim=0) if out.dim() > 1 else nonpos
            stats.append({
                'mean': round(out.mean().item(), 4),
                'std': round(out.std().item(), 4),
                'dead_fraction': round(dead.sum().item() / dead.numel(), 4),
            })
        return stats

    def compute_gradient_stats(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> List[Dict[str, float]]:
        for p in model.parameters():
            p.grad = None
        pred = model(x)
        ((pred - y) ** 2).mean().backward()
        result = []
        for m in model.children():
            if isinstance(m, nn.Linear):
                g = m.weight.grad
                result.append({'mean': round(g.mean().item(), 4),
                               'std': round(torch.var(g).sqrt().item(), 4),
                               'norm': round(g.pow(2).sum().sqrt().item(), 4)})
        return result

    def diagnose(self, activation_stats: List[Dict[str, float]], gradient_stats: List[Dict[str, float]]) -> str:
        for a in activation_stats:
            if a['dead_fraction'] > 0.5:
                return 'dead_neurons'
        for g in gradient_stats:
            if g['norm'] > 1000:
                return 'exploding_gradients'
        if len(gradient_stats) > 0 and gradient_stats[-1]['norm'] < 1e-5:
            return 'vanishing_gradients'
        for a in activation_stats:
            if a['std'] < 0.1:
                return 'vanishing_gradients'
            elif a['std'] > 10.0:
                return 'exploding_gradients'
        return 'healthy'
