"""Accepted: the model is walked child by child; every BatchNorm1d is computed by hand in NumPy (float64),
the other children are called as they are. Activations are recognised by their class names."""
from typing import Dict, List

import numpy as np
import torch
import torch.nn as nn

ACT_NAMES = {"ReLU", "LeakyReLU", "Sigmoid", "Tanh", "GELU", "SiLU", "Softplus", "ELU"}


def _bn(child, h, train, state):
    """BatchNorm1d by hand; ``state`` holds this layer's running (mean, var), updated in train mode."""
    mean, var = state[child]
    if train:
        mu, biased = h.mean(axis=0), h.var(axis=0)
        n = h.shape[0]
        m = child.momentum
        state[child] = ((1 - m) * mean + m * mu, (1 - m) * var + m * biased * n / (n - 1))
        mean, var = mu, biased
    normalised = (h - mean) / np.sqrt(var + child.eps)
    if not child.affine:  # built with affine=False: weight and bias are None
        return normalised
    return normalised * child.weight.detach().double().numpy() + child.bias.detach().double().numpy()


def _forward(model, x, train, state):
    h = x.detach().double().numpy()
    for child in model.children():
        if isinstance(child, nn.BatchNorm1d):
            h = _bn(child, h, train, state)
        else:
            with torch.no_grad():
                h = child.double()(torch.from_numpy(h)).numpy()
    return h


def _state(model):
    return {c: (c.running_mean.double().numpy().copy(), c.running_var.double().numpy().copy())
            for c in model.children() if isinstance(c, nn.BatchNorm1d)}


class Solution:
    def train_eval_gap(self, model: nn.Module, x: torch.Tensor) -> Dict[str, float]:
        state = _state(model)
        d = np.abs(_forward(model, x, True, state) - _forward(model, x, False, _state(model)))
        return {"max_abs_gap": float(d.max()), "mean_abs_gap": float(d.mean())}

    def running_stats_after(self, model: nn.Module, x: torch.Tensor, steps: int) -> List[Dict[str, List[float]]]:
        state = _state(model)
        for _ in range(steps):
            _forward(model, x, True, state)
        return [{"running_mean": [round(float(v), 4) for v in state[c][0]],
                 "running_var": [round(float(v), 4) for v in state[c][1]]} for c in state]

    def placement(self, model: nn.Module) -> List[str]:
        names = [type(c).__name__ for c in model.children()]
        out = []
        for i, name in enumerate(names):
            if name != "BatchNorm1d":
                continue
            if i > 0 and names[i - 1] in ACT_NAMES:
                out.append("after_activation")
            elif names[i + 1:i + 2] and names[i + 1] in ACT_NAMES:
                out.append("before_activation")
            else:
                out.append("other")
        return out

    def diagnose_bn(self, gap: Dict[str, float], placement: List[str], batch_size: int) -> str:
        if not batch_size >= 2:
            return "batch_too_small"
        if gap["max_abs_gap"] > 1.0:
            return "stale_running_stats"
        if "after_activation" in set(placement):
            return "bn_after_activation"
        return "healthy"
