# variant: NumPy statistics, gains from nn.init.calculate_gain, signal recorded by forward hooks
from typing import Any, Dict, List

import numpy as np
import torch
import torch.nn as nn

GAINS = {nn.ReLU: 'relu', nn.LeakyReLU: 'leaky_relu', nn.Tanh: 'tanh'}


class Solution:
    def init_report(self, model: nn.Module) -> List[Dict[str, float]]:
        mods = list(model.children())
        rows = []
        for i, m in enumerate(mods):
            if not isinstance(m, nn.Linear):
                continue
            w = m.weight.detach().cpu().numpy().astype(np.float64)
            fan_out, fan_in = w.shape
            nxt = mods[i + 1] if i + 1 < len(mods) else None
            kind = GAINS.get(type(nxt))
            if kind in ('relu', 'leaky_relu'):
                param = nxt.negative_slope if kind == 'leaky_relu' else None
                target = nn.init.calculate_gain(kind, param) / np.sqrt(fan_in)
            else:
                gain = nn.init.calculate_gain(kind) if kind else 1.0
                target = gain * np.sqrt(2.0 / (fan_in + fan_out))
            std = float(np.std(w, ddof=1))
            rows.append({'fan_in': int(fan_in), 'fan_out': int(fan_out), 'weight_std': round(std, 4),
                         'target_std': round(float(target), 4), 'ratio': round(std / float(target), 4)})
        return rows

    def signal_report(self, model: nn.Module, x: torch.Tensor) -> Dict[str, Any]:
        outs = []
        handles = [m.register_forward_hook(lambda mod, inp, out: outs.append(out.detach().cpu().double().numpy()))
                   for m in model.children() if isinstance(m, nn.Linear)]
        try:
            with torch.no_grad():
                model(x)
        finally:
            for h in handles:
                h.remove()
        stds = [float(np.std(o, ddof=1)) for o in outs]
        growth = float((stds[-1] / stds[0]) ** (1.0 / (len(stds) - 1))) if len(stds) > 1 else 1.0
        return {'stds': [round(s, 4) for s in stds], 'growth': round(growth, 4)}

    def verdict(self, init_report: List[Dict[str, float]], signal: Dict[str, Any]) -> Dict[str, Any]:
        ratios = np.array([r['ratio'] for r in init_report], dtype=np.float64)
        labels = np.where(ratios > 2.0, 'too_large', np.where(ratios < 0.5, 'too_small', 'ok'))
        g = signal['growth']
        state = 'stable'
        if g > 1.5:
            state = 'exploding_signal'
        elif g < 0.75:
            state = 'vanishing_signal'
        return {'layers': [str(s) for s in labels], 'signal': state}
