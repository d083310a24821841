# variant: forward hooks on the nn.ReLU modules; dead = column max equals 0
from typing import List

import torch
import torch.nn as nn


class Solution:
    def detect_dead_neurons(self, model: nn.Module, x: torch.Tensor) -> List[float]:
        found = []

        def hook(module, inputs, output):
            never_fires = output.amax(dim=0) == 0
            found.append(round(never_fires.float().mean().item(), 4))

        handles = [m.register_forward_hook(hook) for m in model.children() if type(m) is nn.ReLU]
        try:
            with torch.no_grad():
                model(x)
        finally:
            for h in handles:
                h.remove()
        return found

    def suggest_fix(self, dead_fractions: List[float]) -> str:
        if len(dead_fractions) == 0:
            return 'healthy'
        if max(dead_fractions) > 0.5:
            return 'use_leaky_relu'
        if dead_fractions[0] > 0.3:
            return 'reinitialize'
        if len(dead_fractions) > 1 and dead_fractions[-1] > 0.1:
            if all(dead_fractions[i] < dead_fractions[i + 1] for i in range(len(dead_fractions) - 1)):
                return 'reduce_learning_rate'
        return 'healthy'
