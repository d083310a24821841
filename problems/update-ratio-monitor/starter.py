from typing import Any, Dict, List

import torch
import torch.nn as nn


class Solution:
    def step_ratios(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor,
                    optimizer: Dict[str, Any]) -> List[Dict[str, float]]:
        """Clear old gradients, backpropagate nn.MSELoss()(model(x), y), build the optimizer the dict
        describes ('sgd', 'adam' or 'adamw', every keyword given) over model.parameters() and take ONE step.

        For each nn.Linear weight, in order (biases are stepped but not reported), return a dict with:
          'weight_norm' -- ||W|| before the step
          'grad_norm'   -- ||dL/dW||, the gradient autograd left in .grad
          'update_norm' -- ||W_after - W_before||
          'log10_ratio' -- log10(max(update_norm / weight_norm, 1e-12))
        Round to 4 decimals (or don't).
        """
        raise NotImplementedError

    def lr_advice(self, log10_ratios: List[float]) -> str:
        """Return 'lr_too_high', 'lr_too_low', 'unbalanced_layers' or 'ok'.

        Check the rules in the order given in the problem description.
        """
        raise NotImplementedError
