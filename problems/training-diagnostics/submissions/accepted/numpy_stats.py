# variant: NumPy statistics (ddof=1, np.linalg.norm) returning numpy scalars
from typing import Dict, List

import numpy as np
import torch
import torch.nn as nn


def _linear_outputs(model, x):
    out = []
    for layer in model.children():
        x = layer(x)
        if isinstance(layer, nn.Linear):
            out.append(x.detach().cpu().numpy())
    return out


class Solution:
    def compute_activation_stats(self, model: nn.Module, x: torch.Tensor) -> List[Dict[str, float]]:
        with torch.no_grad():
            outs = _linear_outputs(model, x)
        result = []
        for a in outs:
            dead = np.all(a <= 0, axis=0) if a.ndim > 1 else a <= 0
            result.append({'mean': np.round(a.mean(dtype=np.float64), 4),
                           'std': np.round(a.std(ddof=1, dtype=np.float64), 4),
                           'dead_fraction': np.round(np.mean(dead), 4)})
        return result

    def compute_gradient_stats(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> List[Dict[str, float]]:
        model.zero_grad()
        nn.MSELoss(reduction='mean')(model(x), y).backward()
        linears = [m for m in model.children() if isinstance(m, nn.Linear)]
        grads = [m.weight.grad.detach().cpu().numpy().astype(np.float64) for m in linears]
        return [{'mean': g.mean(), 'std': g.std(ddof=1), 'norm': np.linalg.norm(g)} for g in grads]

    def diagnose(self, activation_stats: List[Dict[str, float]], gradient_stats: List[Dict[str, float]]) -> str:
        dead = [s['dead_fraction'] for s in activation_stats]
        norms = [s['norm'] for s in gradient_stats]
        if dead and max(dead) > 0.5:
            return 'dead_neurons'
        if norms and max(norms) > 1000:
            return 'exploding_gradients'
        if norms and norms[-1] < 1e-5:
            return 'vanishing_gradients'
        stds = [s['std'] for s in activation_stats]
        first_bad = next((v for v in stds if v < 0.1 or v > 10.0), None)
        if first_bad is None:
            return 'healthy'
        return 'vanishing_gradients' if first_bad < 0.1 else 'exploding_gradients'
