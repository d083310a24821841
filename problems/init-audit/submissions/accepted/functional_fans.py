# variant: torch's own fan helper, functional forward, growth as the geometric mean of per-layer ratios
import math
from typing import Any, Dict, List

import torch
import torch.nn as nn
import torch.nn.functional as F


class Solution:
    def init_report(self, model: nn.Module) -> List[Dict[str, float]]:
        mods = list(model.children())
        out = []
        for idx, mod in enumerate(mods):
            if type(mod) is not nn.Linear:
                continue
            fan_in, fan_out = nn.init._calculate_fan_in_and_fan_out(mod.weight)
            after = mods[idx + 1] if idx + 1 < len(mods) else None
            xavier = math.sqrt(2.0 / float(fan_in + fan_out))
            if type(after) is nn.ReLU:
                target = math.sqrt(2.0 / fan_in)
            elif type(after) is nn.LeakyReLU:
                target = math.sqrt(2.0 / ((1.0 + after.negative_slope ** 2) * fan_in))
            elif type(after) is nn.Tanh:
                target = 5.0 / 3.0 * xavier
            else:
                target = xavier
            s = torch.std(mod.weight.detach().double(), unbiased=True).item()
            out.append(dict(fan_in=fan_in, fan_out=fan_out, weight_std=s, target_std=target, ratio=s / target))
        return out

    def signal_report(self, model: nn.Module, x: torch.Tensor) -> Dict[str, Any]:
        stds = []
        h = x.double()
        for mod in model.children():
            if isinstance(mod, nn.Linear):
                h = F.linear(h, mod.weight.detach().double(), mod.bias.detach().double())
                stds.append(h.std().item())
            else:
                h = mod(h)
        steps = [b / a for a, b in zip(stds, stds[1:])]
        growth = math.prod(steps) ** (1.0 / len(steps)) if steps else 1.0
        return {'stds': stds, 'growth': growth}

    def verdict(self, init_report: List[Dict[str, float]], signal: Dict[str, Any]) -> Dict[str, Any]:
        layers = []
        for r in init_report:
            layers.append('ok' if 0.5 <= r['ratio'] <= 2.0 else ('too_large' if r['ratio'] > 2.0 else 'too_small'))
        g = signal['growth']
        rules = [(g > 1.5, 'exploding_signal'), (g < 0.75, 'vanishing_signal'), (True, 'stable')]
        return {'layers': layers, 'signal': next(name for hit, name in rules if hit)}
