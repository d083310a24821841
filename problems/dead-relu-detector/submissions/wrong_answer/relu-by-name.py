# pitfall: relu-by-name
"""Wrong: ReLU layers found by class name (LeakyReLU excluded), so ReLU6 and PReLU are measured too."""
from typing import List

import torch
import torch.nn as nn


class Solution:
    def detect_dead_neurons(self, model: nn.Module, x: torch.Tensor) -> List[float]:
        fractions = []
        with torch.no_grad():
            for layer in model.children():
                x = layer(x)
                name = type(layer).__name__
                if 'ReLU' in name and 'Leaky' not in name:
                    dead = (x == 0).all(dim=0).float().mean()
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
