"""Activations, the ``act`` layer's vocabulary: ``{"act": "leaky_relu", "negative_slope": 0.01}``.

Each is PyTorch's own module. Its ``hazard`` tells the generator where a float32 result is fragile: ``kinks``
where the derivative jumps (a pre-activation within noise of one decides "dead or alive"), ``floor`` where the
float32 output underflows to exactly 0 while float64's does not (measured on CPU in torch 2.13: sigmoid and SiLU
at -88.7, softplus at -102.9, exact-erf GELU at -5.5, because ``1 + erf(x/√2)`` rounds to 0 there).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable

from judge.package.kinds.base import Hazard
from judge.package.kinds.lazy import nn

EXP_FLOOR = -80.0
"""inputs below this underflow exp-based activations (sigmoid, SiLU, softplus) in float32, with a margin"""
GELU_FLOOR = -5.0
"""exact-erf GELU's float32 output is exactly 0 below -5.5"""


@dataclass(frozen=True)
class Activation:
    """One activation: its JSON name, the name of its module in ``torch.nn``, parameters (JSON name -> default,
    in constructor order)."""

    name: str
    module_name: str
    params: dict[str, float] = field(default_factory=dict)
    hazard: Callable[[nn.Module], Hazard | None] = lambda module: None
    increasing: tuple[str, ...] = ()
    """parameters whose values must rise strictly in this order (Hardtanh's ``min_val < max_val``)"""
    counts: tuple[str, ...] = ()
    """parameters that are counts, integers from 1 (PReLU's ``num_parameters``)"""
    weight: str | None = None
    """the count that sizes the module's one parameter, ``weight``, where it has one (PReLU's slopes)"""

    def parameters(self, spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
        """The built module's ``named_parameters()``: names and shapes."""
        return [] if self.weight is None else [("weight", [spec.get(self.weight, self.params[self.weight])])]

    @property
    def module(self) -> type[nn.Module]:
        return getattr(nn, self.module_name)

    def build(self, spec: dict[str, Any]) -> nn.Module:
        return self.module(*(spec.get(k, v) for k, v in self.params.items()))

    def describe(self, spec: dict[str, Any]) -> str:
        """The constructor call, e.g. ``LeakyReLU(0.01)``."""
        return f"{self.module_name}({', '.join(str(spec.get(k, v)) for k, v in self.params.items())})"

    def code(self, spec: dict[str, Any]) -> str:
        """The constructor call as Python, e.g. ``nn.LeakyReLU(0.01)``."""
        return f"nn.{self.module_name}({', '.join(repr(spec.get(k, v)) for k, v in self.params.items())})"


def _fixed(hazard: Hazard) -> Callable[[nn.Module], Hazard]:
    return lambda module: hazard


ACTIVATIONS: dict[str, Activation] = {a.name: a for a in (
    Activation("relu", "ReLU", hazard=_fixed(Hazard(kinks=(0.0,)))),
    Activation("leaky_relu", "LeakyReLU", {"negative_slope": 0.01}, _fixed(Hazard(kinks=(0.0,)))),
    Activation("sigmoid", "Sigmoid", hazard=_fixed(Hazard(floor=EXP_FLOOR))),
    Activation("tanh", "Tanh"),
    Activation("gelu", "GELU", hazard=_fixed(Hazard(floor=GELU_FLOOR))),
    Activation("silu", "SiLU", hazard=_fixed(Hazard(floor=EXP_FLOOR))),
    Activation("softplus", "Softplus", {"beta": 1.0, "threshold": 20.0}, _fixed(Hazard(floor=EXP_FLOOR))),
    Activation("elu", "ELU", {"alpha": 1.0},  # the derivative jumps at 0 unless alpha is 1
               lambda module: Hazard(kinks=(0.0,)) if module.alpha != 1.0 else None),
    # Look-alikes by name, each a mistake's test: "ReLU" in a class name also finds ReLU6, "Tanh" finds Hardtanh,
    # "Sigmoid" finds Hardsigmoid; none is an instance of the module it resembles (ReLU6 subclasses Hardtanh).
    Activation("relu6", "ReLU6", hazard=_fixed(Hazard(kinks=(0.0, 6.0)))),
    Activation("hardtanh", "Hardtanh", {"min_val": -1.0, "max_val": 1.0},
               lambda module: Hazard(kinks=(module.min_val, module.max_val)), increasing=("min_val", "max_val")),
    Activation("hardsigmoid", "Hardsigmoid", hazard=_fixed(Hazard(kinks=(-3.0, 3.0)))),
    # An activation with a parameter (one slope, or one per channel, all starting at `slope`): "every parameter"
    # holds it, and "ReLU" in its class name matches it too. Its derivative jumps at 0 unless every slope is 1.
    Activation("prelu", "PReLU", {"num_parameters": 1, "slope": 0.25},
               lambda module: None if bool((module.weight == 1).all()) else Hazard(kinks=(0.0,)),
               counts=("num_parameters",), weight="num_parameters"),
)}
"""every activation a case may name (``docs/kinds.md`` lists them)"""


@functools.cache
def _by_module() -> dict[type[nn.Module], Activation]:
    return {a.module: a for a in ACTIVATIONS.values()}


def by_module(module_type: type) -> Activation | None:
    """The activation whose PyTorch module is exactly ``module_type``, if any."""
    return _by_module().get(module_type)
