from typing import Any, Dict, List

import torch
import torch.nn as nn


class Solution:
    def clip_report(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, max_norm: float) -> Dict[str, Any]:
        """Clear stored gradients, backpropagate nn.MSELoss()(model(x), y), then describe clipping by norm.

        Return {"total_norm", "clip_coef", "clipped_total_norm", "param_norms", "clipped_param_norms"}
        over every parameter with a gradient, in model.named_parameters() order, each rounded to 4 decimals.
        """
        raise NotImplementedError

    def clip_per_layer(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, max_norm: float) -> List[float]:
        """The same backward pass; one group per nn.Linear (its weight and bias together).

        Return each group's norm after clipping that group alone to max_norm, rounded to 4 decimals.
        """
        raise NotImplementedError

    def advise_threshold(self, total_norms: List[float], max_norm: float) -> str:
        """Return 'raise_threshold', 'lower_threshold' or 'keep' by the rules in the problem description."""
        raise NotImplementedError
