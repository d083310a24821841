"""Accepted: model.zero_grad(set_to_none=True), NumPy norms in float64, nothing rounded."""
from typing import Dict

import numpy as np
import torch
import torch.nn as nn


class Solution:
    def _backward(self, model, x, y):
        model.zero_grad(set_to_none=True)
        nn.MSELoss()(model(x), y).backward()

    def parameter_status(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> Dict[str, str]:
        self._backward(model, x, y)
        out = {}
        for name, p in model.named_parameters():
            if not p.requires_grad:
                out[name] = 'frozen'
            elif p.grad is None:
                out[name] = 'no_grad'
            elif np.count_nonzero(p.grad.detach().numpy()) == 0:
                out[name] = 'zero_grad'
            else:
                out[name] = 'ok'
        return out

    def gradient_norms(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> Dict[str, float]:
        self._backward(model, x, y)
        return {name: 0.0 if p.grad is None else float(np.linalg.norm(p.grad.detach().double().numpy().ravel()))
                for name, p in model.named_parameters()}

    def diagnose_graph(self, status: Dict[str, str]) -> str:
        kinds = set(status.values())
        if kinds == {'frozen'}:
            return 'nothing_to_train'
        for found, verdict in (('no_grad', 'disconnected_branch'), ('zero_grad', 'zero_gradients')):
            if found in kinds:
                return verdict
        return 'healthy'
