from typing import List

import torch
import torch.nn as nn


class Solution:
    def signal_log_norms(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor) -> List[float]:
        """loss = nn.CrossEntropyLoss()(model(x), labels). For each nn.Linear output z_l, input to output:
        log10(max(||dL/dz_l||, 1e-30)), rounded to 4 decimals."""
        raise NotImplementedError

    def weight_log_norms(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor) -> List[float]:
        """The same for each nn.Linear's weight gradient dL/dW_l."""
        raise NotImplementedError

    def classify_flow(self, log_norms: List[float]) -> str:
        """Return 'vanishing', 'exploding' or 'healthy' by the rules in the problem description."""
        raise NotImplementedError
