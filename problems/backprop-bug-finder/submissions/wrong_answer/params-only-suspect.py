# pitfall: params-only-suspect
"""suspect looks at the parameter checks only."""
from typing import Any, Dict, List

import torch
import torch.nn as nn


def _float64(model: nn.Module, x: torch.Tensor, y: torch.Tensor):
    return model.double(), x.double(), y.double()


def _loss(children: List[nn.Module], h: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    for child in children:
        h = child(h)
    return nn.MSELoss()(h, y)


def _relative(a: torch.Tensor, n: torch.Tensor) -> float:
    denominator = (a.norm() + n.norm()).item()
    return 0.0 if denominator == 0 else (a - n).norm().item() / denominator


def _central(f, flat: torch.Tensor, eps: float) -> torch.Tensor:
    """Central differences of f() over every entry of ``flat`` (a view that f reads), each entry restored."""
    out = torch.empty(flat.numel(), dtype=torch.float64)
    for i in range(flat.numel()):
        original = flat[i].item()
        flat[i] = original + eps
        plus = f()
        flat[i] = original - eps
        minus = f()
        flat[i] = original
        out[i] = (plus - minus) / (2 * eps)
    return out


def _parameter_errors(model: nn.Module, x: torch.Tensor, y: torch.Tensor, eps: float) -> Dict[str, float]:
    model, x, y = _float64(model, x, y)
    children = list(model.children())
    if not list(model.parameters()):
        return {}  # a parameter-free model: nothing to check (and nothing for backward() to reach)
    model.zero_grad(set_to_none=True)
    _loss(children, x, y).backward()
    analytic = {name: p.grad.detach().clone().view(-1) for name, p in model.named_parameters()}

    def loss() -> float:
        with torch.no_grad():
            return _loss(children, x, y).item()

    errors = {}
    for name, p in model.named_parameters():
        numeric = _central(loss, p.data.view(-1), eps)
        errors[name] = _relative(analytic[name], numeric)
    return errors


def _input_errors(model: nn.Module, x: torch.Tensor, y: torch.Tensor, eps: float) -> List[float]:
    model, x, y = _float64(model, x, y)
    children = list(model.children())
    model.zero_grad(set_to_none=True)
    inputs = [x]
    with torch.no_grad():
        for child in children[:-1]:
            inputs.append(child(inputs[-1]))
    errors = []
    for k, h in enumerate(inputs):
        h = h.detach().clone().requires_grad_(True)
        (analytic,) = torch.autograd.grad(_loss(children[k:], h, y), h)
        probe = h.detach().clone()

        def loss() -> float:
            with torch.no_grad():
                return _loss(children[k:], probe, y).item()

        numeric = _central(loss, probe.view(-1), eps)
        errors.append(_relative(analytic.reshape(-1), numeric))
    return errors


def _owners(model: nn.Module) -> Dict[str, int]:
    """Each parameter's qualified name -> the index of the child that holds it."""
    return {f"{name}.{p}": k for k, (name, child) in enumerate(model.named_children())
            for p, _ in child.named_parameters()}


class Solution:
    def check_parameters(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, eps: float,
                         tol: float) -> Dict[str, Dict[str, Any]]:
        errors = _parameter_errors(model, x, y, eps)
        return {name: {"rel_error": round(e, 4), "verdict": 'fail' if e > tol else 'pass'}
                for name, e in errors.items()}

    def check_module_inputs(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, eps: float,
                            tol: float) -> List[str]:
        return ['fail' if e > tol else 'pass' for e in _input_errors(model, x, y, eps)]

    def suspect(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, eps: float, tol: float) -> int:
        owners = _owners(model)
        parameters = _parameter_errors(model, x, y, eps)
        inputs = _input_errors(model, x, y, eps)
        failing = []
        failing += [owners[name] for name, e in parameters.items() if e > tol]
        return max(failing, default=-1)
