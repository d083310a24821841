# pitfall: linear-parameters-only
"""Wrong: check measures the parameters of the nn.Linear layers only, so a PReLU's slopes are left out."""
from typing import Any, Dict, List

import torch
import torch.nn as nn


def _float64(model: nn.Module, x: torch.Tensor, y: torch.Tensor):
    return model.double(), x.double(), y.double()


def _loss(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    with torch.no_grad():
        return nn.MSELoss()(model(x), y).item()


def _numeric(model: nn.Module, x: torch.Tensor, y: torch.Tensor, weight: torch.Tensor, indices, eps: float) -> List[float]:
    flat = weight.data.view(-1)
    grads = []
    for i in indices:
        original = flat[i].item()
        flat[i] = original + eps
        plus = _loss(model, x, y)
        flat[i] = original - eps
        minus = _loss(model, x, y)
        flat[i] = original
        grads.append((plus - minus) / (2 * eps))
    return grads


def _analytic(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> Dict[str, torch.Tensor]:
    model.zero_grad(set_to_none=True)
    nn.MSELoss()(model(x), y).backward()
    return {name: p.grad.detach().clone() for name, p in model.named_parameters()}


def _relative(a: torch.Tensor, n: torch.Tensor) -> float:
    denominator = (a.norm() + n.norm()).item()
    return 0.0 if denominator == 0 else (a - n).norm().item() / denominator


def _errors(model: nn.Module, x: torch.Tensor, y: torch.Tensor, eps: float) -> Dict[str, float]:
    model, x, y = _float64(model, x, y)
    analytic = _analytic(model, x, y)
    errors = {}
    for prefix, layer in model.named_modules():
        if not isinstance(layer, nn.Linear):
            continue
        for short, p in layer.named_parameters():
            name = f"{prefix}.{short}"
            numeric = torch.tensor(_numeric(model, x, y, p, range(p.numel()), eps), dtype=torch.float64)
            errors[name] = _relative(analytic[name].view(-1), numeric)
    return errors


class Solution:
    def numeric_grad(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, param: str, indices: List[int],
                     eps: float) -> List[float]:
        model, x, y = _float64(model, x, y)
        weight = dict(model.named_parameters())[param]
        return [round(g, 4) for g in _numeric(model, x, y, weight, indices, eps)]

    def analytic_grad(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, param: str,
                      indices: List[int]) -> List[float]:
        model, x, y = _float64(model, x, y)
        grad = _analytic(model, x, y)[param].view(-1)
        return [round(grad[i].item(), 4) for i in indices]

    def check(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, eps: float, tol: float) -> Dict[str, Any]:
        errors = _errors(model, x, y, eps)
        verdict = 'fail' if any(e > tol for e in errors.values()) else 'pass'
        return {"rel_errors": {k: round(v, 4) for k, v in errors.items()}, "verdict": verdict}

    def _boundaries(self, *args: Any) -> List[tuple]:
        """Author-side (judge gen, G1): check's verdict compares every relative error with tol."""
        if len(args) != 5 or isinstance(args[3], str):
            return []
        model, x, y, eps, tol = args
        return [(error, tol) for error in _errors(model, x, y, eps).values()]
