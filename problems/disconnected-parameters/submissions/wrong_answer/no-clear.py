# pitfall: no-clear
"""Wrong: stale gradients are not cleared."""
from typing import Dict

import torch
import torch.nn as nn


def _backward(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> None:
    """Drop the stale gradients (set to None, so 'no gradient' stays visible), then backpropagate the MSE loss."""
    nn.MSELoss()(model(x), y).backward()


def _status(p: nn.Parameter) -> str:
    if not p.requires_grad:
        return 'frozen'
    if p.grad is None:
        return 'no_grad'
    if not p.grad.any():
        return 'zero_grad'
    return 'ok'


class Solution:
    def parameter_status(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> Dict[str, str]:
        _backward(model, x, y)
        return {name: _status(p) for name, p in model.named_parameters()}

    def gradient_norms(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> Dict[str, float]:
        _backward(model, x, y)
        return {name: 0.0 if p.grad is None else round(p.grad.norm().item(), 4)
                for name, p in model.named_parameters()}

    def diagnose_graph(self, status: Dict[str, str]) -> str:
        values = list(status.values())
        if values and all(s == 'frozen' for s in values):
            return 'nothing_to_train'
        if 'no_grad' in values:
            return 'disconnected_branch'
        if 'zero_grad' in values:
            return 'zero_gradients'
        return 'healthy'
