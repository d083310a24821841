from typing import List

import torch
import torch.nn as nn


class Solution:
    def detect_dead_neurons(self, model: nn.Module, x: torch.Tensor) -> List[float]:
        """Run x through model's children in order, without tracking gradients.

        After each nn.ReLU layer, compute the fraction of neurons that are dead:
        a neuron is dead if it outputs 0 for ALL samples in the batch.
        Return one fraction per ReLU layer, in order, each rounded to 4 decimals.
        """
        raise NotImplementedError

    def suggest_fix(self, dead_fractions: List[float]) -> str:
        """Return 'use_leaky_relu', 'reinitialize', 'reduce_learning_rate' or 'healthy'.

        Check the rules in the priority order given in the problem description.
        """
        raise NotImplementedError
