from typing import Dict

import torch
import torch.nn as nn


class Solution:
    def parameter_status(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> Dict[str, str]:
        """Set every .grad to None, backpropagate nn.MSELoss()(model(x), y), then classify every parameter.

        Return {qualified name: 'frozen' | 'no_grad' | 'zero_grad' | 'ok'} in model.named_parameters() order.
        """
        raise NotImplementedError

    def gradient_norms(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> Dict[str, float]:
        """The same backward pass; return {qualified name: L2 norm of .grad (0.0 when None)}, rounded to 4 decimals."""
        raise NotImplementedError

    def diagnose_graph(self, status: Dict[str, str]) -> str:
        """Return 'nothing_to_train', 'disconnected_branch', 'zero_gradients' or 'healthy' by the rules in the description."""
        raise NotImplementedError
