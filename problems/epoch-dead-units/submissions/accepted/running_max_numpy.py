"""Accepted: forward hooks keep each ReLU unit's running maximum in float64 NumPy (a ReLU unit is dead when its
maximum over the epoch is 0); statistics unrounded."""
from typing import Dict

import numpy as np
import torch
import torch.nn as nn


class Solution:
    def epoch_dead(self, model: nn.Module, batches: torch.Tensor) -> Dict[str, float]:
        best: Dict[str, np.ndarray] = {}

        def keep(name):
            def hook(module, inputs, output):
                m = output.detach().double().numpy().reshape(-1, output.shape[-1]).max(axis=0)
                best[name] = m if name not in best else np.maximum(best[name], m)
            return hook

        handles = [m.register_forward_hook(keep(n)) for n, m in model.named_modules() if isinstance(m, nn.ReLU)]
        with torch.no_grad():
            for b in range(batches.shape[0]):
                model(batches[b])
        for h in handles:
            h.remove()
        return {name: float(np.mean(m == 0)) for name, m in best.items()}

    def linear_stats(self, model: nn.Module, x: torch.Tensor) -> Dict[str, Dict[str, float]]:
        stats = {}

        def keep(name):
            def hook(module, inputs, output):
                z = output.detach().double().numpy()
                stats[name] = {"mean": float(z.mean()), "std": float(z.std(ddof=1))}
            return hook

        handles = [m.register_forward_hook(keep(n)) for n, m in model.named_modules() if isinstance(m, nn.Linear)]
        with torch.no_grad():
            model(x)
        for h in handles:
            h.remove()
        return stats

    def advise(self, dead: Dict[str, float]) -> str:
        worst = max(dead.values(), default=0.0)
        if worst > 0.9:
            return 'severe_dead_relu'
        return 'lost_capacity' if worst > 0.4 else 'healthy'
