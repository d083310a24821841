"""Accepted: a state_dict copy per evaluation (load_state_dict), NumPy float64 for the norms, unrounded."""
import copy
from typing import Any, Dict, List

import numpy as np
import torch
import torch.nn as nn


class Solution:
    def _loss_at(self, model, state, x, y):
        model.load_state_dict(state)
        with torch.no_grad():
            return float(((model(x) - y) ** 2).mean())

    def _numeric(self, model, x, y, name, indices, eps):
        base = {k: v.clone() for k, v in model.state_dict().items()}
        out = []
        for i in indices:
            plus, minus = copy.deepcopy(base), copy.deepcopy(base)
            plus[name].view(-1)[i] += eps
            minus[name].view(-1)[i] -= eps
            out.append((self._loss_at(model, plus, x, y) - self._loss_at(model, minus, x, y)) / (2 * eps))
        model.load_state_dict(base)
        return out

    def numeric_grad(self, model, x, y, param, indices, eps):
        model = model.double()
        return self._numeric(model, x.double(), y.double(), param, indices, eps)

    def _analytic(self, model, x, y):
        for p in model.parameters():
            p.grad = None
        ((model(x) - y) ** 2).mean().backward()
        return {k: p.grad.double().numpy().ravel().copy() for k, p in model.named_parameters()}

    def analytic_grad(self, model, x, y, param, indices):
        model = model.double()
        g = self._analytic(model, x.double(), y.double())[param]
        return [float(g[i]) for i in indices]

    def check(self, model, x, y, eps, tol):
        model = model.double()
        x, y = x.double(), y.double()
        analytic = self._analytic(model, x, y)
        rel = {}
        for name, a in analytic.items():
            n = np.array(self._numeric(model, x, y, name, range(a.size), eps))
            denominator = np.linalg.norm(a) + np.linalg.norm(n)
            rel[name] = float(np.linalg.norm(a - n) / denominator) if denominator > 0 else 0.0
        return {"rel_errors": rel, "verdict": "fail" if any(r > tol for r in rel.values()) else "pass"}
