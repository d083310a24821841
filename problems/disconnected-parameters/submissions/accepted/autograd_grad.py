"""Accepted: torch.autograd.grad with allow_unused=True (None for parameters outside the graph), never reading .grad."""
from typing import Dict, Optional

import torch
import torch.nn as nn


def _grads(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> Dict[str, Optional[torch.Tensor]]:
    named = list(model.named_parameters())
    trainable = [(n, p) for n, p in named if p.requires_grad]
    loss = nn.MSELoss()(model(x), y)
    found = torch.autograd.grad(loss, [p for _, p in trainable], allow_unused=True)
    grads = dict(zip([n for n, _ in trainable], found))
    return {n: grads.get(n) for n, _ in named}


class Solution:
    def parameter_status(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> Dict[str, str]:
        frozen = {n for n, p in model.named_parameters() if not p.requires_grad}
        out = {}
        for name, g in _grads(model, x, y).items():
            if name in frozen:
                out[name] = 'frozen'
            elif g is None:
                out[name] = 'no_grad'
            else:
                out[name] = 'zero_grad' if torch.all(g == 0) else 'ok'
        return out

    def gradient_norms(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> Dict[str, float]:
        return {n: 0.0 if g is None else round(torch.linalg.vector_norm(g).item(), 4)
                for n, g in _grads(model, x, y).items()}

    def diagnose_graph(self, status: Dict[str, str]) -> str:
        values = list(status.values())
        if len(values) > 0 and values.count('frozen') == len(values):
            return 'nothing_to_train'
        if any(v == 'no_grad' for v in values):
            return 'disconnected_branch'
        if any(v == 'zero_grad' for v in values):
            return 'zero_gradients'
        return 'healthy'
