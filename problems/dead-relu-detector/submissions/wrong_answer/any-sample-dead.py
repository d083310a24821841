# pitfall: any-sample-dead
from typing import List

import torch
import torch.nn as nn


class Solution:
    def detect_dead_neurons(self, model: nn.Module, x: torch.Tensor) -> List[float]:
        fractions = []
        with torch.no_grad():
            for layer in model.children():
                x = layer(x)
                if isinstance(layer, nn.ReLU):
                    dead = (x == 0).any(dim=0).float().mean()
                    fractions.append(round(dead.item(), 4))
        return fractions

    def suggest_fix(self, dead_fractions: List[float]) -> str:
        if not dead_fractions:
            return 'healthy'
        if any(f > 0.5 for f in dead_fractions):
            return 'use_leaky_relu'
        if dead_fractions[0] > 0.3:
            return 'reinitialize'
        increasing = all(a < b for a, b in zip(dead_fractions, dead_fractions[1:]))
        if len(dead_fractions) >= 2 and increasing and dead_fractions[-1] > 0.1:
            return 'reduce_learning_rate'
        return 'healthy'
