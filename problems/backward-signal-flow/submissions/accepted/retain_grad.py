"""Accepted: retain_grad() on every Linear output, one backward pass, weight gradients read from .grad."""
import math
from typing import List

import torch
import torch.nn as nn


class Solution:
    def _backward(self, model, x, labels):
        model.zero_grad()
        zs, h = [], x
        for layer in model.children():
            h = layer(h)
            if isinstance(layer, nn.Linear):
                h.retain_grad()
                zs.append(h)
        nn.CrossEntropyLoss()(h, labels).backward()
        return zs

    def signal_log_norms(self, model, x, labels) -> List[float]:
        return [math.log10(max(z.grad.norm().item(), 1e-30)) for z in self._backward(model, x, labels)]

    def weight_log_norms(self, model, x, labels) -> List[float]:
        self._backward(model, x, labels)
        return [math.log10(max(m.weight.grad.norm().item(), 1e-30)) for m in model.children() if isinstance(m, nn.Linear)]

    def classify_flow(self, log_norms: List[float]) -> str:
        if len(log_norms) >= 2:
            steps = [b - a for a, b in zip(log_norms, log_norms[1:])]
            if min(steps) > 0 and log_norms[-1] - log_norms[0] > 2:
                return "vanishing"
            if max(steps) < 0 and log_norms[0] - log_norms[-1] > 1:
                return "exploding"
        return "healthy"
