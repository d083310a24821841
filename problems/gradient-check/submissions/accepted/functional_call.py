"""Accepted: torch.func.functional_call on perturbed copies of the parameters; nothing is changed in place."""
from typing import Any, Dict, List

import torch
import torch.nn as nn
from torch.func import functional_call, grad


class Solution:
    def _setup(self, model, x, y):
        model = model.double()
        params = {k: v.detach() for k, v in model.named_parameters()}
        loss = lambda p: nn.functional.mse_loss(functional_call(model, p, (x.double(),)), y.double())
        return params, loss

    def _numeric(self, params, loss, name, indices, eps):
        out = []
        for i in indices:
            step = torch.zeros(params[name].numel(), dtype=torch.float64)
            step[i] = eps
            step = step.view_as(params[name])
            plus = loss({**params, name: params[name] + step}).item()
            minus = loss({**params, name: params[name] - step}).item()
            out.append((plus - minus) / (2 * eps))
        return out

    def numeric_grad(self, model, x, y, param, indices, eps):
        params, loss = self._setup(model, x, y)
        return self._numeric(params, loss, param, indices, eps)

    def analytic_grad(self, model, x, y, param, indices):
        params, loss = self._setup(model, x, y)
        g = grad(loss)(params)[param].reshape(-1)
        return [g[i].item() for i in indices]

    def check(self, model, x, y, eps, tol):
        params, loss = self._setup(model, x, y)
        analytic = grad(loss)(params)
        errors = {}
        for name, p in params.items():
            a = analytic[name].reshape(-1)
            n = torch.tensor(self._numeric(params, loss, name, range(p.numel()), eps), dtype=torch.float64)
            total = a.norm() + n.norm()
            errors[name] = 0.0 if total == 0 else ((a - n).norm() / total).item()
        return {"rel_errors": errors, "verdict": "fail" if max(errors.values()) > tol else "pass"}
