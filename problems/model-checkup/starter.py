from typing import Any, Dict

import torch
import torch.nn as nn


class Solution:
    def checkup(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, lr: float) -> Dict[str, Any]:
        """Clear stale gradients, loss = nn.CrossEntropyLoss()(model(x), labels), one backward pass. Return
        dead_fraction (per nn.ReLU), saturated_fraction (per nn.Sigmoid / nn.Tanh), entropy_ratio, max_spread,
        grad_log10, update_log10 and init_ratio (per nn.Linear), every number rounded to 4 decimals."""
        raise NotImplementedError

    def findings(self, report: Dict[str, Any]) -> Dict[str, Any]:
        """Return {"all": [every matching finding, in priority order], "primary": all[0] or 'healthy'}."""
        raise NotImplementedError
