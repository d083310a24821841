from typing import Dict

import torch
import torch.nn as nn


class Solution:
    def epoch_dead(self, model: nn.Module, batches: torch.Tensor) -> Dict[str, float]:
        """batches is [B, N, F]; the epoch is model(batches[b]) for every b.

        For every nn.ReLU anywhere in the model (keyed by its name from model.named_modules()), return the fraction
        of its units whose output is exactly 0 for every sample of every batch (rounded to 4 decimals).
        """
        raise NotImplementedError

    def linear_stats(self, model: nn.Module, x: torch.Tensor) -> Dict[str, Dict[str, float]]:
        """For every nn.Linear (keyed by its qualified name), {"mean", "std"} of its output during model(x)."""
        raise NotImplementedError

    def advise(self, dead: Dict[str, float]) -> str:
        """Return 'severe_dead_relu', 'lost_capacity' or 'healthy' by the rules, in order."""
        raise NotImplementedError
