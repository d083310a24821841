"""The ``custom`` layer kind: judge-built autograd layers with a correct forward and a correct or deliberately
wrong backward.

``backprop-bug-finder`` (catalogue problem 14) hands learners models built from these and asks which layer's
backward is broken. The Functions use ``setup_context`` (the new style), so ``torch.func`` transforms such as
``torch.func.grad`` work on them (catalogue §7.17). The bug is a plain string argument, never a tensor.
"""

from __future__ import annotations

from typing import Any, ClassVar

import torch
from torch import nn

from judge.package.kinds.activations import EXP_FLOOR
from judge.package.kinds.base import LAYERS, Checker, Hazard, LayerKind
from judge.package.kinds.layers import describe_parts, linear_parameters, linear_tensors, validate_linear

BUGS: dict[str, tuple[str, ...]] = {
    "linear": ("none", "weight_grad_half", "bias_grad_zero", "input_grad_sign", "input_grad_transposed"),
    "tanh": ("none", "derivative_from_input"),
    "sigmoid": ("none", "missing_factor"),
}
"""the bugs each custom layer can carry; ``none`` is the correct backward"""


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


@LAYERS.register
class Custom(LayerKind):
    key = "custom"
    fields = frozenset({"bug", "linear", "weight", "bias"})
    summary = "a judge autograd.Function layer (linear, tanh, sigmoid) with a correct or broken backward"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        kind = check.choice(spec.get("custom"), BUGS, f"{where}.custom")
        bug = check.choice(spec.get("bug", "none"), BUGS[kind], f"{where}.bug")
        if kind == "linear":
            validate_linear(spec, where, check)
            if bug == "input_grad_transposed" and spec["linear"][0] != spec["linear"][1]:
                check.fail(f"{where}.linear", "a square layer (the bug transposes the weight)")
        else:
            check.fields(spec, {"custom", "bug"}, where)

    def parameters(self, spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
        return linear_parameters(spec) if spec["custom"] == "linear" else []

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        bug = spec.get("bug", "none")
        if spec["custom"] == "linear":
            return CustomLinear(*linear_tensors(spec, gen), bug)
        return (CustomTanh if spec["custom"] == "tanh" else CustomSigmoid)(bug)

    def describe(self, spec: dict[str, Any]) -> str:
        name = {"linear": "CustomLinear", "tanh": "CustomTanh", "sigmoid": "CustomSigmoid"}[spec["custom"]]
        bug = spec.get("bug", "none")
        inside = f"{spec['linear'][0]}, {spec['linear'][1]}; {describe_parts(spec, ('weight', 'bias'))}; " \
            if spec["custom"] == "linear" else ""
        return f"{name}({inside}backward {'correct' if bug == 'none' else 'with bug ' + bug})"
