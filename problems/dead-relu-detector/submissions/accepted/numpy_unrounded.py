# variant: NumPy dead fractions, unrounded numpy scalars; rule table for suggest_fix
from typing import List

import numpy as np
import torch
import torch.nn as nn


class Solution:
    def detect_dead_neurons(self, model: nn.Module, x: torch.Tensor) -> List[float]:
        result = []
        with torch.no_grad():
            for layer in model.children():
                x = layer(x)
                if isinstance(layer, nn.ReLU):
                    a = x.cpu().numpy()
                    result.append(np.mean(np.all(a == 0, axis=0)))
        return result

    def suggest_fix(self, dead_fractions: List[float]) -> str:
        f = list(dead_fractions)
        rules = [
            ('use_leaky_relu', lambda: any(v > 0.5 for v in f)),
            ('reinitialize', lambda: f[0] > 0.3),
            ('reduce_learning_rate',
             lambda: len(f) >= 2 and bool(np.all(np.diff(f) > 0)) and f[-1] > 0.1),
        ]
        if not f:
            return 'healthy'
        for verdict, fires in rules:
            if fires():
                return verdict
        return 'healthy'
