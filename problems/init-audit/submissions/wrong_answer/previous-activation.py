# pitfall: previous-activation
import math
from typing import Any, Dict, List, Optional

import torch
import torch.nn as nn

TANH_GAIN = 5.0 / 3.0


def _target_std(fan_in: int, fan_out: int, following: Optional[nn.Module]) -> float:
    """The std the initialisation should have, chosen by the module that consumes the Linear's output."""
    if isinstance(following, nn.ReLU):
        return math.sqrt(2.0) / math.sqrt(fan_in)
    if isinstance(following, nn.LeakyReLU):
        a = following.negative_slope
        return math.sqrt(2.0 / (1.0 + a * a)) / math.sqrt(fan_in)
    xavier = math.sqrt(2.0 / (fan_in + fan_out))
    return TANH_GAIN * xavier if isinstance(following, nn.Tanh) else xavier


class Solution:
    def init_report(self, model: nn.Module) -> List[Dict[str, float]]:
        children = list(model.children())
        rows = []
        for i, layer in enumerate(children):
            if not isinstance(layer, nn.Linear):
                continue
            fan_out, fan_in = layer.weight.shape
            following = children[i - 1] if i > 0 else None
            weight_std = layer.weight.detach().std().item()
            target = _target_std(fan_in, fan_out, following)
            rows.append({'fan_in': fan_in, 'fan_out': fan_out, 'weight_std': round(weight_std, 4),
                         'target_std': round(target, 4), 'ratio': round(weight_std / target, 4)})
        return rows

    def signal_report(self, model: nn.Module, x: torch.Tensor) -> Dict[str, Any]:
        stds = []
        with torch.no_grad():
            h = x
            for layer in model.children():
                h = layer(h)
                if isinstance(layer, nn.Linear):
                    stds.append(h.std().item())
        growth = (stds[-1] / stds[0]) ** (1.0 / (len(stds) - 1)) if len(stds) >= 2 else 1.0
        return {'stds': [round(s, 4) for s in stds], 'growth': round(growth, 4)}

    def verdict(self, init_report: List[Dict[str, float]], signal: Dict[str, Any]) -> Dict[str, Any]:
        layers = []
        for row in init_report:
            if row['ratio'] > 2.0:
                layers.append('too_large')
            elif row['ratio'] < 0.5:
                layers.append('too_small')
            else:
                layers.append('ok')
        growth = signal['growth']
        if growth > 1.5:
            state = 'exploding_signal'
        elif growth < 0.75:
            state = 'vanishing_signal'
        else:
            state = 'stable'
        return {'layers': layers, 'signal': state}
