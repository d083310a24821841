# variant: counts neurons that fire at least once, fraction = 1 - alive/width; sorted-check for increase
from typing import List

import torch
import torch.nn as nn


class Solution:
    def detect_dead_neurons(self, model: nn.Module, x: torch.Tensor) -> List[float]:
        fractions = []
        h = x
        with torch.no_grad():
            for layer in model.children():
                h = layer(h)
                if isinstance(layer, nn.ReLU):
                    h2 = h.reshape(h.shape[0], -1) if h.dim() > 1 else h.unsqueeze(1)
                    alive = int((h2 != 0).any(dim=0).sum())
                    width = h2.shape[1]
                    fractions.append(round((width - alive) / width, 4))
        return fractions

    def suggest_fix(self, dead_fractions: List[float]) -> str:
        if not dead_fractions:
            return 'healthy'
        first, last = dead_fractions[0], dead_fractions[-1]
        if max(dead_fractions) > 0.5:
            return 'use_leaky_relu'
        if first > 0.3:
            return 'reinitialize'
        strictly_up = len(set(dead_fractions)) == len(dead_fractions) and dead_fractions == sorted(dead_fractions)
        if len(dead_fractions) >= 2 and strictly_up and last > 0.1:
            return 'reduce_learning_rate'
        return 'healthy'
