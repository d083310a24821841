"""Accepted: torch.autograd.grad for the signal and the weights in one call, NumPy for the norms, 4 decimals."""
from typing import List

import numpy as np
import torch
import torch.nn as nn


class Solution:
    def _grads(self, model, x, labels):
        zs, ws, h = [], [], x
        for layer in model.children():
            h = layer(h)
            if isinstance(layer, nn.Linear):
                zs.append(h)
                ws.append(layer.weight)
        grads = torch.autograd.grad(nn.CrossEntropyLoss(reduction="mean")(h, labels), zs + ws)
        return grads[:len(zs)], grads[len(zs):]

    @staticmethod
    def _log(g):
        return round(float(np.log10(max(np.linalg.norm(g.detach().double().numpy().ravel()), 1e-30))), 4)

    def signal_log_norms(self, model, x, labels) -> List[float]:
        return [self._log(g) for g in self._grads(model, x, labels)[0]]

    def weight_log_norms(self, model, x, labels) -> List[float]:
        return [self._log(g) for g in self._grads(model, x, labels)[1]]

    def classify_flow(self, log_norms: List[float]) -> str:
        d = np.diff(np.asarray(log_norms, dtype=np.float64))
        if len(log_norms) < 2:
            return "healthy"
        if np.all(d > 0) and log_norms[-1] - log_norms[0] > 2:
            return "vanishing"
        if np.all(d < 0) and log_norms[0] - log_norms[-1] > 1:
            return "exploding"
        return "healthy"
