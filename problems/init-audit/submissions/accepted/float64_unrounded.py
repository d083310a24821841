# variant: everything in float64, nothing rounded; the target is looked up in a table of gains
import math
from typing import Any, Dict, List

import torch
import torch.nn as nn


def _gain(module: nn.Module) -> float:
    if isinstance(module, nn.ReLU):
        return math.sqrt(2.0)
    if isinstance(module, nn.LeakyReLU):
        return math.sqrt(2.0 / (1.0 + module.negative_slope ** 2))
    return 0.0


class Solution:
    def init_report(self, model: nn.Module) -> List[Dict[str, float]]:
        children = list(model.children()) + [None]
        rows = []
        for layer, nxt in zip(children, children[1:]):
            if not isinstance(layer, nn.Linear):
                continue
            w = layer.weight.detach().double().flatten()
            fan_in, fan_out = layer.in_features, layer.out_features
            std = math.sqrt(((w - w.mean()) ** 2).sum().item() / (w.numel() - 1))
            if _gain(nxt):
                target = _gain(nxt) / math.sqrt(fan_in)
            else:
                scale = 5.0 / 3.0 if isinstance(nxt, nn.Tanh) else 1.0
                target = scale * math.sqrt(2.0 / (fan_in + fan_out))
            rows.append({'fan_in': fan_in, 'fan_out': fan_out, 'weight_std': std,
                         'target_std': target, 'ratio': std / target})
        return rows

    def signal_report(self, model: nn.Module, x: torch.Tensor) -> Dict[str, Any]:
        model = model.double()
        h = x.double()
        stds = []
        with torch.no_grad():
            for layer in model.children():
                h = layer(h)
                if isinstance(layer, nn.Linear):
                    stds.append(torch.std(h).item())
        growth = 1.0
        if len(stds) > 1:
            growth = math.exp((math.log(stds[-1]) - math.log(stds[0])) / (len(stds) - 1))
        return {'stds': stds, 'growth': growth}

    def verdict(self, init_report: List[Dict[str, float]], signal: Dict[str, Any]) -> Dict[str, Any]:
        def layer(r: float) -> str:
            return 'too_large' if r > 2.0 else 'too_small' if r < 0.5 else 'ok'

        g = signal['growth']
        state = 'exploding_signal' if g > 1.5 else 'vanishing_signal' if g < 0.75 else 'stable'
        return {'layers': [layer(row['ratio']) for row in init_report], 'signal': state}
