# pitfall: saturated-threshold-ge
"""Wrong: a saturated fraction of exactly 0.5 triggers the rule."""
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
            if isinstance(layer, nn.Sigmoid):
                found.append(('sigmoid', x * (1 - x)))
            elif isinstance(layer, nn.Tanh):
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
        if any(s["saturated_fraction"] >= 0.5 for s in stats):
            return 'saturated'
        product = 1.0
        for s in stats:
            product *= s["mean_gain"]
        if product < 0.01:
            return 'vanishing_gradients'
        if any(s["saturated_units"] > 0.1 for s in stats):
            return 'stuck_units'
        return 'healthy'
