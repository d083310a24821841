"""The judge's autograd layers behind the ``custom`` layer kind (:mod:`.custom`): a correct forward and a correct
or deliberately wrong backward, chosen by the ``bug`` string.

The Functions use ``setup_context`` (the new style), so ``torch.func`` transforms such as ``torch.func.grad`` work
on them (catalogue §7.17). Subclassing torch's classes imports torch, so this module is imported only when a
custom layer is first built, never by the judge's process (see :mod:`.lazy`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import torch
from torch import nn

from judge.package.kinds.activations import EXP_FLOOR
from judge.package.kinds.base import Hazard


class LinearFunction(torch.autograd.Function):
    """``y = x Wᵀ + b``."""

    @staticmethod
    def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, bug: str) -> torch.Tensor:
        return x @ weight.t() + bias

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: torch.Tensor) -> None:
        x, weight, _, ctx.bug = inputs
        ctx.save_for_backward(x, weight)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[Any, ...]:
        x, weight = ctx.saved_tensors
        grad_x = grad @ weight
        grad_w = grad.t() @ x
        grad_b = grad.sum(0)
        if ctx.bug == "weight_grad_half":
            grad_w = grad_w / 2
        elif ctx.bug == "bias_grad_zero":
            grad_b = torch.zeros_like(grad_b)
        elif ctx.bug == "input_grad_sign":
            grad_x = -grad_x
        elif ctx.bug == "input_grad_transposed":  # square weights only: W instead of Wᵀ in the chain rule
            grad_x = grad @ weight.t()
        return grad_x, grad_w, grad_b, None


class TanhFunction(torch.autograd.Function):
    @staticmethod
    def forward(x: torch.Tensor, bug: str) -> torch.Tensor:
        return torch.tanh(x)

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: torch.Tensor) -> None:
        x, ctx.bug = inputs
        ctx.save_for_backward(x, output)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[Any, ...]:
        x, a = ctx.saved_tensors
        at = x if ctx.bug == "derivative_from_input" else a  # 1 - z² instead of 1 - a²
        return grad * (1 - at * at), None


class SigmoidFunction(torch.autograd.Function):
    @staticmethod
    def forward(x: torch.Tensor, bug: str) -> torch.Tensor:
        return torch.sigmoid(x)

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: torch.Tensor) -> None:
        ctx.bug = inputs[1]
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[Any, ...]:
        (a,) = ctx.saved_tensors
        local = a if ctx.bug == "missing_factor" else a * (1 - a)
        return grad * local, None


class CustomLinear(nn.Module):
    """A Linear layer whose backward is the judge's :class:`LinearFunction`."""

    hazard: ClassVar[Hazard | None] = None

    def __init__(self, weight: torch.Tensor, bias: torch.Tensor, bug: str = "none"):
        super().__init__()
        self.weight = nn.Parameter(weight)
        self.bias = nn.Parameter(bias)
        self.bug = bug

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return LinearFunction.apply(x, self.weight, self.bias, self.bug)

    def extra_repr(self) -> str:
        return f"in_features={self.weight.shape[1]}, out_features={self.weight.shape[0]}, bug={self.bug!r}"


class CustomTanh(nn.Module):
    hazard: ClassVar[Hazard | None] = None

    def __init__(self, bug: str = "none"):
        super().__init__()
        self.bug = bug

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return TanhFunction.apply(x, self.bug)

    def extra_repr(self) -> str:
        return f"bug={self.bug!r}"


class CustomSigmoid(nn.Module):
    hazard: ClassVar[Hazard | None] = Hazard(floor=EXP_FLOOR)

    def __init__(self, bug: str = "none"):
        super().__init__()
        self.bug = bug

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return SigmoidFunction.apply(x, self.bug)

    def extra_repr(self) -> str:
        return f"bug={self.bug!r}"
