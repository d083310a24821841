"""Accepted: in-place perturbation under torch.no_grad, restored with copy_ or by value, autograd.grad, 4 decimals
(check keeps its relative errors unrounded for the verdict)."""
from typing import Any, Dict, List

import torch
import torch.nn as nn


def _loss(model, x, y):
    return nn.MSELoss()(model(x), y)


class Solution:
    def numeric_grad(self, model, x, y, param, indices, eps):
        model.double()
        x, y = x.double(), y.double()
        p = model.get_parameter(param)
        saved = p.detach().clone()
        result = []
        with torch.no_grad():
            for i in indices:
                values = []
                for sign in (1.0, -1.0):
                    p.view(-1)[i] += sign * eps
                    values.append(_loss(model, x, y).item())
                    p.copy_(saved)
                result.append(round((values[0] - values[1]) / (2.0 * eps), 4))
        return result

    def analytic_grad(self, model, x, y, param, indices):
        model.double()
        p = model.get_parameter(param)
        (g,) = torch.autograd.grad(_loss(model, x.double(), y.double()), [p])
        flat = g.reshape(-1)
        return [round(float(flat[i]), 4) for i in indices]

    def check(self, model, x, y, eps, tol):
        names = [n for n, _ in model.named_parameters()]
        model.double()
        grads = torch.autograd.grad(_loss(model, x.double(), y.double()), list(model.parameters()))
        rel = {}
        for name, a in zip(names, grads):
            n = torch.tensor(self._unrounded(model, x, y, name, a.numel(), eps), dtype=torch.float64)
            a = a.reshape(-1)
            denominator = a.norm().item() + n.norm().item()
            rel[name] = (a - n).norm().item() / denominator if denominator else 0.0
        verdict = "fail" if any(v > tol for v in rel.values()) else "pass"
        return {"rel_errors": {k: round(v, 4) for k, v in rel.items()}, "verdict": verdict}

    def _unrounded(self, model, x, y, name, count, eps):
        p = model.get_parameter(name)
        x, y = x.double(), y.double()
        out = []
        with torch.no_grad():
            for i in range(count):
                w = p.view(-1)[i].item()
                p.view(-1)[i] = w + eps
                hi = _loss(model, x, y).item()
                p.view(-1)[i] = w - eps
                lo = _loss(model, x, y).item()
                p.view(-1)[i] = w
                out.append((hi - lo) / (2 * eps))
        return out
