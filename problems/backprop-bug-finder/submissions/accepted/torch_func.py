"""Accepted: the autograd side through torch.func (grad over a functional_call, vjp for the module inputs);
numeric differences batched one entry at a time over a flat copy; float64, unrounded."""
from typing import Any, Dict, List

import torch
import torch.nn as nn
from torch.func import functional_call, grad, vjp


def _mse(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return ((out - y) ** 2).mean()


def _central(f, v: torch.Tensor, eps: float) -> torch.Tensor:
    """Central differences of f at v over every entry of v (v itself is never modified)."""
    flat = v.reshape(-1)
    out = []
    for i in range(flat.numel()):
        step = torch.zeros_like(flat)
        step[i] = eps
        plus = f((flat + step).view_as(v))
        minus = f((flat - step).view_as(v))
        out.append((plus - minus) / (2 * eps))
    return torch.stack(out) if out else torch.zeros(0, dtype=v.dtype)


def _rel(a: torch.Tensor, n: torch.Tensor) -> float:
    d = a.norm() + n.norm()
    return 0.0 if d.item() == 0 else ((a - n).norm() / d).item()


class Solution:
    def _params(self, model, x, y, eps):
        model, x, y = model.double(), x.double(), y.double()
        params = {k: v.detach() for k, v in model.named_parameters()}
        if not params:
            return {}
        loss = lambda p: _mse(functional_call(model, p, (x,)), y)
        analytic = grad(loss)(params)
        errors = {}
        for name, value in params.items():
            def f(v, name=name):
                with torch.no_grad():
                    return loss({**params, name: v})
            errors[name] = _rel(analytic[name].reshape(-1), _central(f, value, eps))
        return errors

    def _inputs(self, model, x, y, eps):
        model, x, y = model.double(), x.double(), y.double()
        children = list(model)
        h, hs = x, []
        with torch.no_grad():
            for child in children:
                hs.append(h)
                h = child(h)
        errors = []
        for k, h in enumerate(hs):
            tail = nn.Sequential(*children[k:])
            value, pull = vjp(lambda v: _mse(tail(v), y), h)
            (analytic,) = pull(torch.ones_like(value))

            def f(v):
                with torch.no_grad():
                    return _mse(tail(v), y)
            errors.append(_rel(analytic.reshape(-1), _central(f, h, eps)))
        return errors

    def check_parameters(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, eps: float,
                         tol: float) -> Dict[str, Dict[str, Any]]:
        return {k: {"rel_error": e, "verdict": "fail" if e > tol else "pass"}
                for k, e in self._params(model, x, y, eps).items()}

    def check_module_inputs(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, eps: float,
                            tol: float) -> List[str]:
        return ["fail" if e > tol else "pass" for e in self._inputs(model, x, y, eps)]

    def suspect(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, eps: float, tol: float) -> int:
        worst = -1
        for k, e in enumerate(self._inputs(model, x, y, eps)):
            if e > tol:
                worst = max(worst, k)
        for name, e in self._params(model, x, y, eps).items():
            if e > tol:
                worst = max(worst, int(name.split(".")[0]))
        return worst
