"""The judge's autograd layers behind the ``custom`` layer kind (:mod:`.custom`): a correct forward and a correct or
deliberately wrong backward.

What a layer's backward does is its *rule*, chosen when the layer is built from the rules below (one per entry of
:data:`judge.package.kinds.custom.BUGS`, in that order). Every layer of a type holds its rule in the same place, a
nameless function, and nothing else tells the rules apart: no attribute, ``repr``, class, name or docstring says
whether a layer's backward is broken, and there is no flag to flip. ``print(model)`` shows
``CustomLinear(in_features=4, out_features=4)`` whatever the backward does, as the statement describes it.
What cannot be hidden in the learner's own process is the code itself: a submission that looks its layer's rule
up in this module (or disassembles it) can tell which it is, and can put another rule in its place. Neither gives
the answers: hidden cases with a coarse ``eps`` make the central differences the statement asks for differ from the
true gradient. Each class names its rule in ``sealed``: a call that leaves a layer with another rule is a runtime
error (:func:`judge.package.kinds.tampered`), a tripwire inside the submission's process, not a boundary.

The Functions use ``setup_context`` (the new style), so ``torch.func`` transforms such as ``torch.func.grad`` work
on them. Subclassing torch's classes imports torch, so this module is imported only when a
custom layer is first built, never by the judge's process (see :mod:`.lazy`).
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, ClassVar

import torch
from torch import nn

from judge.package.kinds.activations import EXP_FLOOR
from judge.package.kinds.base import Hazard

Rule = Callable[..., Any]

LINEAR_RULES: tuple[Rule, ...] = (
    lambda gx, gw, gb, grad, w: (gx, gw, gb),
    lambda gx, gw, gb, grad, w: (gx, gw / 2, gb),
    lambda gx, gw, gb, grad, w: (gx, gw, torch.zeros_like(gb)),
    lambda gx, gw, gb, grad, w: (-gx, gw, gb),
    lambda gx, gw, gb, grad, w: (grad @ w.t(), gw, gb),
)
"""the Linear's (input, weight, bias) gradients from the correct ones, the incoming gradient and the weight: as
they are, the weight's halved, the bias's zeroed, the input's negated, ``W`` in the input's chain rule instead of
``Wᵀ`` (square weights only)"""
TANH_RULES: tuple[Rule, ...] = (
    lambda z, a: a,
    lambda z, a: z,
)
"""what tanh's derivative ``1 - t²`` is computed from: the output ``a`` (correct) or the input ``z``"""
SIGMOID_RULES: tuple[Rule, ...] = (
    lambda a: a * (1 - a),
    lambda a: a,
)
"""sigmoid's local derivative from its output ``a``: ``a(1 - a)`` (correct) or ``a``"""


class LinearFunction(torch.autograd.Function):
    """``y = x Wᵀ + b``."""

    @staticmethod
    def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, rule: Rule) -> torch.Tensor:
        return x @ weight.t() + bias

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: torch.Tensor) -> None:
        x, weight, _, ctx.rule = inputs
        ctx.save_for_backward(x, weight)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[Any, ...]:
        x, weight = ctx.saved_tensors
        return (*ctx.rule(grad @ weight, grad.t() @ x, grad.sum(0), grad, weight), None)


class TanhFunction(torch.autograd.Function):
    @staticmethod
    def forward(x: torch.Tensor, rule: Rule) -> torch.Tensor:
        return torch.tanh(x)

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: torch.Tensor) -> None:
        x, ctx.rule = inputs
        ctx.save_for_backward(x, output)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[Any, ...]:
        at = ctx.rule(*ctx.saved_tensors)
        return grad * (1 - at * at), None


class SigmoidFunction(torch.autograd.Function):
    @staticmethod
    def forward(x: torch.Tensor, rule: Rule) -> torch.Tensor:
        return torch.sigmoid(x)

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: torch.Tensor) -> None:
        ctx.rule = inputs[1]
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[Any, ...]:
        (a,) = ctx.saved_tensors
        return grad * ctx.rule(a), None


class CustomLinear(nn.Module):
    """A Linear layer whose backward is the judge's :class:`LinearFunction`."""

    hazard: ClassVar[Hazard | None] = None
    sealed: ClassVar[tuple[str, ...]] = ("_rule",)

    def __init__(self, weight: torch.Tensor, bias: torch.Tensor, rule: Rule = LINEAR_RULES[0]):
        super().__init__()
        self.weight = nn.Parameter(weight)
        self.bias = nn.Parameter(bias)
        self._rule = rule

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return LinearFunction.apply(x, self.weight, self.bias, self._rule)

    def extra_repr(self) -> str:
        return f"in_features={self.weight.shape[1]}, out_features={self.weight.shape[0]}"


class CustomTanh(nn.Module):
    hazard: ClassVar[Hazard | None] = None
    sealed: ClassVar[tuple[str, ...]] = ("_rule",)

    def __init__(self, rule: Rule = TANH_RULES[0]):
        super().__init__()
        self._rule = rule

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return TanhFunction.apply(x, self._rule)


class CustomSigmoid(nn.Module):
    hazard: ClassVar[Hazard | None] = Hazard(floor=EXP_FLOOR)
    sealed: ClassVar[tuple[str, ...]] = ("_rule",)

    def __init__(self, rule: Rule = SIGMOID_RULES[0]):
        super().__init__()
        self._rule = rule

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return SigmoidFunction.apply(x, self._rule)


for _function in (LinearFunction, TanhFunction, SigmoidFunction):
    # torch binds every apply's arguments to ``forward``'s signature (setup_context style), computing the signature
    # afresh each time: a fifth of backprop-bug-finder's time. ``inspect`` reads a function's own ``__signature__``.
    _function.forward.__signature__ = inspect.signature(_function.forward)  # type: ignore[attr-defined]

LAYERS: dict[str, tuple[type[nn.Module], tuple[Rule, ...]]] = {
    "linear": (CustomLinear, LINEAR_RULES), "tanh": (CustomTanh, TANH_RULES), "sigmoid": (CustomSigmoid, SIGMOID_RULES)}
"""each ``custom`` layer's module and rules, by the value of its ``custom`` key"""


def rule_index(layer: nn.Module) -> int | None:
    """Which of its type's rules a custom layer holds (for the build checksum), or None for any other module."""
    for cls, rules in LAYERS.values():
        if type(layer) is cls:
            return rules.index(layer._rule)
    return None
