from typing import Dict, List

import torch
import torch.nn as nn


class Solution:
    def compute_activation_stats(self, model: nn.Module, x: torch.Tensor) -> List[Dict[str, float]]:
        """Run x through model's children in order, without tracking gradients.

        After every nn.Linear, record the statistics of that Linear's output
        (before any activation that follows it):
          'mean'          -- mean over all elements
          'std'           -- standard deviation (unbiased, like torch's x.std())
          'dead_fraction' -- fraction of neurons (output columns) that are <= 0
                             for every sample in the batch
        Return one dict per Linear layer, in order, each value rounded to 4 decimals.
        """
        raise NotImplementedError

    def compute_gradient_stats(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> List[Dict[str, float]]:
        """Clear old gradients, run a forward pass, compute nn.MSELoss() against y
        and backpropagate.

        For each nn.Linear layer's weight gradient, record:
          'mean' -- mean of the gradient
          'std'  -- standard deviation (unbiased)
          'norm' -- Frobenius (L2) norm
        Return one dict per Linear layer, in order, each value rounded to 4 decimals.
        """
        raise NotImplementedError

    def diagnose(self, activation_stats: List[Dict[str, float]], gradient_stats: List[Dict[str, float]]) -> str:
        """Return 'dead_neurons', 'exploding_gradients', 'vanishing_gradients' or 'healthy'.

        Check the rules in the priority order given in the problem description.
        """
        raise NotImplementedError
