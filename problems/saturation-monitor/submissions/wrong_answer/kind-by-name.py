# pitfall: kind-by-name
"""Wrong: Sigmoid and Tanh modules found by class name, so Hardsigmoid and Hardtanh are measured too."""
from typing import Any, Dict, List

import torch
import torch.nn as nn

SATURATED_GAIN = 0.1


def _gains(model: nn.Module, x: torch.Tensor) -> List[tuple]:
    """(kind, local derivative) for every Sigmoid and Tanh module, in order."""
    found = []
    with torch.no_grad():
        for layer in model.children():
            x = layer(x)
            name = type(layer).__name__.lower()
            if 'sigmoid' in name:
                found.append(('sigmoid', x * (1 - x)))
            elif 'tanh' in name:
                found.append(('tanh', 1 - x * x))
    return found


class Solution:
    def saturation_stats(self, model: nn.Module, x: torch.Tensor) -> List[Dict[str, Any]]:
        stats = []
        for kind, d in _gains(model, x):
            saturated = d < SATURATED_GAIN
            stats.append({
                "kind": kind,
                "mean_gain": round(d.mean().item(), 4),
                "saturated_fraction": round(saturated.float().mean().item(), 4),
                "saturated_units": round(saturated.all(dim=0).float().mean().item(), 4),
            })
        return stats

    def diagnose(self, stats: List[Dict[str, Any]]) -> str:
        if not stats:
            return 'healthy'
        if any(s["saturated_fraction"] > 0.5 for s in stats):
            return 'saturated'
        product = 1.0
        for s in stats:
            product *= s["mean_gain"]
        if product < 0.01:
            return 'vanishing_gradients'
        if any(s["saturated_units"] > 0.1 for s in stats):
            return 'stuck_units'
        return 'healthy'

    def _boundaries(self, *args: Any) -> List[tuple]:
        """Author-side (judge gen, G1): every local derivative is compared with 0.1."""
        if len(args) != 2 or not isinstance(args[0], nn.Module):
            return []
        return [(d, SATURATED_GAIN) for _, d in _gains(*args)]
