"""Accepted: cast model and data to float64, clear each .grad by hand, norms as sqrt of summed squares."""
import math
from typing import Dict

import torch
import torch.nn as nn


class Solution:
    def _run(self, model, x, y):
        model = model.double()
        for p in model.parameters():
            p.grad = None
        loss = ((model(x.double()) - y.double()) ** 2).mean()
        loss.backward()
        return model

    def parameter_status(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> Dict[str, str]:
        model = self._run(model, x, y)
        status = {}
        for name, p in model.named_parameters():
            if p.requires_grad is False:
                status[name] = 'frozen'
            elif p.grad is None:
                status[name] = 'no_grad'
            elif torch.count_nonzero(p.grad).item() == 0:
                status[name] = 'zero_grad'
            else:
                status[name] = 'ok'
        return status

    def gradient_norms(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> Dict[str, float]:
        model = self._run(model, x, y)
        norms = {}
        for name, p in model.named_parameters():
            norms[name] = 0.0 if p.grad is None else math.sqrt((p.grad ** 2).sum().item())
        return norms

    def diagnose_graph(self, status: Dict[str, str]) -> str:
        if status and all(s == 'frozen' for s in status.values()):
            return 'nothing_to_train'
        if 'no_grad' in status.values():
            return 'disconnected_branch'
        if 'zero_grad' in status.values():
            return 'zero_gradients'
        return 'healthy'
