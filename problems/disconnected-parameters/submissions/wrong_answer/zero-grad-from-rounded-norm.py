# pitfall: zero-grad-from-rounded-norm
"""Wrong: zero_grad is decided on the gradient norm rounded to 4 decimals, so a tiny but nonzero gradient counts as zero."""
from typing import Any, Dict, List

import torch
import torch.nn as nn


def _backward(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> None:
    """Drop the stale gradients (set to None, so 'no gradient' stays visible), then backpropagate the MSE loss."""
    for p in model.parameters():
        p.grad = None
    nn.MSELoss()(model(x), y).backward()


def _status(p: nn.Parameter) -> str:
    if not p.requires_grad:
        return 'frozen'
    if p.grad is None:
        return 'no_grad'
    if round(p.grad.norm().item(), 4) == 0:
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

    def _boundaries(self, *args: Any) -> List[tuple]:
        """Author-side (judge gen, G1): 'zero_grad' tests for exact zeros, so a gradient whose largest entry is
        round-off (a bias in front of a train-mode BatchNorm) must be rejected; an exact 0 is not fragile."""
        if len(args) != 3 or not isinstance(args[0], nn.Module):
            return []
        model, x, y = args
        _backward(model, x, y)
        return [(p.grad.abs().max(), 0.0) for p in model.parameters() if p.grad is not None]
