"""Accepted: full backward hooks on every Linear (grad_output is dL/dz), torch.log10, float64 copies."""
from typing import List

import torch
import torch.nn as nn


class Solution:
    def _hooked(self, model, x, labels):
        signal, handles = [], []
        linears = [m for m in model.children() if isinstance(m, nn.Linear)]
        for m in linears:
            handles.append(m.register_full_backward_hook(lambda mod, gin, gout: signal.append(gout[0].detach().double())))
        for p in model.parameters():
            p.grad = None
        try:
            torch.nn.functional.cross_entropy(model(x), labels).backward()
        finally:
            for h in handles:
                h.remove()
        signal.reverse()  # hooks fire from the output back to the input
        return signal, [m.weight.grad.double() for m in linears]

    @staticmethod
    def _logs(tensors):
        return [torch.log10(t.norm().clamp_min(1e-30)).item() for t in tensors]

    def signal_log_norms(self, model, x, labels) -> List[float]:
        return self._logs(self._hooked(model, x, labels)[0])

    def weight_log_norms(self, model, x, labels) -> List[float]:
        return self._logs(self._hooked(model, x, labels)[1])

    def classify_flow(self, log_norms: List[float]) -> str:
        n = len(log_norms)
        if n < 2:
            return "healthy"
        up = all(log_norms[i] < log_norms[i + 1] for i in range(n - 1))
        down = all(log_norms[i] > log_norms[i + 1] for i in range(n - 1))
        if up and log_norms[-1] - log_norms[0] > 2:
            return "vanishing"
        if down and log_norms[0] - log_norms[-1] > 1:
            return "exploding"
        return "healthy"
