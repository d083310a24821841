from typing import Any, Dict, List

import torch
import torch.nn as nn


class Solution:
    def numeric_grad(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, param: str, indices: List[int],
                     eps: float) -> List[float]:
        """Cast to float64; for each index i of param.flatten(), (L(w + eps e_i) - L(w - eps e_i)) / (2 eps),
        with L = nn.MSELoss()(model(x), y); restore every entry. Round to 4 decimals."""
        raise NotImplementedError

    def analytic_grad(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, param: str,
                      indices: List[int]) -> List[float]:
        """Cast to float64, clear stale gradients, backpropagate the same loss; the requested entries of .grad."""
        raise NotImplementedError

    def check(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, eps: float, tol: float) -> Dict[str, Any]:
        """For every parameter, all entries: rel = ||a - n|| / (||a|| + ||n||) (0.0 when both are 0).

        Return {"rel_errors": {name: rel}, "verdict": 'fail' if any rel > tol else 'pass'}.
        """
        raise NotImplementedError
