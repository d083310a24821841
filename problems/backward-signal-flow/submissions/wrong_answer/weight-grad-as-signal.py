# pitfall: weight-grad-as-signal
"""Wrong: weight gradients as the signal."""
import math
from typing import List

import torch
import torch.nn as nn

FLOOR = 1e-30


def _log_norm(g: torch.Tensor) -> float:
    return round(math.log10(max(g.norm().item(), FLOOR)), 4)


def _loss_and_linears(model: nn.Module, x: torch.Tensor, labels: torch.Tensor):
    """The loss, every nn.Linear's output z_l and every nn.Linear, in input-to-output order."""
    outputs, linears = [], []
    h = x
    for layer in model.children():
        h = layer(h)
        if isinstance(layer, nn.Linear):
            outputs.append(h)
            linears.append(layer)
    return nn.CrossEntropyLoss()(h, labels), outputs, linears


class Solution:
    def signal_log_norms(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor) -> List[float]:
        loss, _, linears = _loss_and_linears(model, x, labels)
        return [_log_norm(g) for g in torch.autograd.grad(loss, [m.weight for m in linears])] if linears else []

    def weight_log_norms(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor) -> List[float]:
        loss, _, linears = _loss_and_linears(model, x, labels)
        weights = [layer.weight for layer in linears]
        return [_log_norm(g) for g in torch.autograd.grad(loss, weights)] if weights else []

    def classify_flow(self, log_norms: List[float]) -> str:
        if len(log_norms) < 2:
            return 'healthy'
        pairs = list(zip(log_norms, log_norms[1:]))
        if all(a < b for a, b in pairs) and log_norms[-1] - log_norms[0] > 2:
            return 'vanishing'
        if all(a > b for a, b in pairs) and log_norms[0] - log_norms[-1] > 1:
            return 'exploding'
        return 'healthy'
