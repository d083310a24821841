"""INIT: how a tensor's values are drawn, ``{"init": scheme, ...}``.

Every scheme draws in float64 from the object's private ``torch.Generator``; the caller casts to float32. Fans
matter to the layer schemes only (``default``, ``kaiming_*``, ``xavier_*``); a layer passes its own (for a
convolution ``fan_in = c_in·k·k``, ``fan_out = c_out·k·k``, as PyTorch computes them).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Callable

from judge.package.kinds.base import GEN, Checker, literal, say_in
from judge.package.kinds.lazy import torch

Draw = Callable[[dict[str, Any], list[int], "torch.Generator", int, int], "torch.Tensor"]


def _uniform(shape: list[int], low: float, high: float, gen: torch.Generator) -> torch.Tensor:
    return torch.rand(shape, generator=gen, dtype=torch.float64) * (high - low) + low


def _fan_std(init: dict[str, Any], fan_in: int, fan_out: int) -> float:
    if init["init"].startswith("kaiming"):
        return init.get("gain", math.sqrt(2.0)) / math.sqrt(fan_in)
    return init.get("gain", 1.0) * math.sqrt(2.0 / (fan_in + fan_out))


def _fan_bound(init: dict[str, Any], fan_in: int, fan_out: int) -> float:
    return math.sqrt(3.0) * _fan_std(init, fan_in, fan_out)


def _default_bound(fan_in: int) -> float:
    """nn.Linear's and nn.Conv2d's own: U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for weight and bias."""
    return 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0


def _fan_normal(init: dict[str, Any], shape: list[int], gen: torch.Generator, fan_in: int,
                fan_out: int) -> torch.Tensor:
    return torch.randn(shape, generator=gen, dtype=torch.float64) * _fan_std(init, fan_in, fan_out)


def _fan_uniform(init: dict[str, Any], shape: list[int], gen: torch.Generator, fan_in: int,
                 fan_out: int) -> torch.Tensor:
    bound = _fan_bound(init, fan_in, fan_out)
    return _uniform(shape, -bound, bound, gen)


def _default(init: dict[str, Any], shape: list[int], gen: torch.Generator, fan_in: int, fan_out: int) -> torch.Tensor:
    bound = _default_bound(fan_in)
    return _uniform(shape, -bound, bound, gen)


# --- the same draws written as Python (``judge show SLUG --code``); ``size`` is the shape's source text ---------

F64 = "dtype=torch.float64"


def _plus(text: str, value: float) -> str:
    """``text + value`` as source; ``x + v`` is ``x - (-v)`` bit for bit."""
    return f"{text} - {-value!r}" if math.copysign(1.0, value) < 0 else f"{text} + {value!r}"


def _rand_code(size: str, low: float, high: float) -> str:
    """:func:`_uniform` as source: the numbers it computes, written exactly (``repr`` round-trips a float);
    adding 0 to a product that is never -0.0 changes nothing."""
    text = f"torch.rand({size}, generator={GEN}, {F64}) * {high - low!r}"
    return text if low == 0 and high - low > 0 else _plus(text, low)


def _normal_code(size: str, std: float, mean: float) -> str:
    """``randn * std + mean``; ``* 1.0`` changes nothing, nor does ``+ 0.0`` to a product that is never -0.0."""
    text = f"torch.randn({size}, generator={GEN}, {F64})" + ("" if std == 1 else f" * {std!r}")
    return text if mean == 0 and std != 0 else _plus(text, mean)


def _values_code(init: dict[str, Any], size: str) -> str:
    text = f"torch.tensor({literal(init['values'])}, {F64})"
    return text if size == f"{tuple(_shape_of(init['values']) or ())}" else f"{text}.reshape({size})"


def _fan_normal_code(init: dict[str, Any], size: str, fan_in: int, fan_out: int) -> str:
    return _normal_code(size, _fan_std(init, fan_in, fan_out), 0.0)


def _fan_uniform_code(init: dict[str, Any], size: str, fan_in: int, fan_out: int) -> str:
    bound = _fan_bound(init, fan_in, fan_out)
    return _rand_code(size, -bound, bound)


Write = Callable[[dict[str, Any], str, int, int], str]


@dataclass(frozen=True)
class Scheme:
    """One INIT scheme: its parameters (name -> default, None when required) and how it draws."""

    name: str
    draw: Draw
    params: dict[str, float | None] = field(default_factory=dict)
    text: str = ""
    """what it draws, for the docs"""
    code: Write | None = None
    """the Python expression of the same float64 draw from ``gen``, given the source text of the shape"""


SCHEMES: dict[str, Scheme] = {s.name: s for s in (
    Scheme("default", _default, text="the layer's own PyTorch initialisation (for a tensor: U(-1, 1))",
           code=lambda i, s, fi, fo: _rand_code(s, -_default_bound(fi), _default_bound(fi))),
    Scheme("zeros", lambda i, s, g, fi, fo: torch.zeros(s, dtype=torch.float64), text="all 0",
           code=lambda i, s, fi, fo: f"torch.zeros({s}, {F64})"),
    Scheme("constant", lambda i, s, g, fi, fo: torch.full(s, float(i["value"]), dtype=torch.float64), {"value": None},
           "all `value`", lambda i, s, fi, fo: f"torch.full({s}, {literal(float(i['value']))}, {F64})"),
    Scheme("normal", lambda i, s, g, fi, fo: torch.randn(s, generator=g, dtype=torch.float64) * i.get("std", 1.0)
           + i.get("mean", 0.0), {"mean": 0.0, "std": 1.0}, "N(mean, std²)",
           lambda i, s, fi, fo: _normal_code(s, i.get("std", 1.0), i.get("mean", 0.0))),
    Scheme("uniform", lambda i, s, g, fi, fo: _uniform(s, i.get("low", -1.0), i.get("high", 1.0), g),
           {"low": -1.0, "high": 1.0}, "U(low, high)",
           lambda i, s, fi, fo: _rand_code(s, i.get("low", -1.0), i.get("high", 1.0))),
    Scheme("kaiming_normal", _fan_normal, {"gain": math.sqrt(2.0)}, "N(0, (gain/√fan_in)²)", _fan_normal_code),
    Scheme("kaiming_uniform", _fan_uniform, {"gain": math.sqrt(2.0)}, "uniform with std gain/√fan_in",
           _fan_uniform_code),
    Scheme("xavier_normal", _fan_normal, {"gain": 1.0}, "N(0, gain²·2/(fan_in+fan_out))", _fan_normal_code),
    Scheme("xavier_uniform", _fan_uniform, {"gain": 1.0}, "uniform with std gain·√(2/(fan_in+fan_out))",
           _fan_uniform_code),
    Scheme("values", lambda i, s, g, fi, fo: torch.tensor(i["values"], dtype=torch.float64).reshape(s), {"values": None},
           "exactly `values`, a nested list of the tensor's shape", lambda i, s, fi, fo: _values_code(i, s)),
)}



def draw(init: dict[str, Any], shape: list[int], gen: torch.Generator, fan_in: int = 1,
         fan_out: int = 1) -> torch.Tensor:
    """One float64 tensor of ``shape`` drawn by the scheme ``init`` (fans matter for layer schemes only)."""
    return SCHEMES[init["init"]].draw(init, shape, gen, fan_in, fan_out)


def draw_code(init: dict[str, Any], size: str, fan_in: int = 1, fan_out: int = 1) -> str:
    """:func:`draw` as a Python expression of a float64 tensor; ``size``: the shape's source text."""
    write = SCHEMES[init["init"]].code
    assert write is not None, f"INIT {init['init']!r} cannot be written as code"
    return write(init, size, fan_in, fan_out)


def cast_code(draw: str, to: str = ".float()") -> str:
    """A drawn float64 expression cast as the builder casts it (``to``: ``.float()``, ``.to(torch.int64)``)."""
    return (f"({draw})" if any(op in draw for op in (" * ", " + ", " - ")) else draw) + to


def size_code(shape: list[int]) -> str:
    """A shape as source: ``(16, 8)``, ``(4,)``, ``()``."""
    return repr(tuple(shape))


def _shape_of(values: Any) -> list[int] | None:
    """The shape of a rectangular nested list of numbers, or None."""
    if not isinstance(values, list):
        return [] if isinstance(values, (int, float)) and not isinstance(values, bool) else None
    inner = [_shape_of(v) for v in values]
    if any(s is None for s in inner) or any(s != inner[0] for s in inner):
        return None
    return [len(values)] + (inner[0] if inner else [])


def flat_values(init: dict[str, Any]) -> list[float]:
    """Every number a ``values`` (or ``constant``) init holds."""
    if init["init"] == "constant":
        return [init["value"]]

    def walk(v: Any) -> list[float]:
        return [x for item in v for x in walk(item)] if isinstance(v, list) else [v]
    return walk(init["values"])


def validate_init(spec: Any, where: str, check: Checker, shape: list[int] | None,
                  extra: set[str] = frozenset()) -> dict[str, Any]:
    """``spec`` is an INIT (with ``extra`` keys allowed beside it); a ``values`` list must fit ``shape``."""
    check.type(spec, dict, where, "expect_init_object")
    scheme = SCHEMES[check.choice(spec.get("init"), SCHEMES, f"{where}.init")]
    check.fields(spec, {"init", *scheme.params, *extra}, where)
    for key, default in scheme.params.items():
        if default is None and key not in spec:
            check.fail(f"{where}.{key}", "expect_init_param", key=key, scheme=repr(scheme.name))
    for key in ("value", "mean", "std", "low", "high", "gain"):
        if key in spec:
            check.number(spec[key], f"{where}.{key}")
    if scheme.name == "values":
        found = _shape_of(spec["values"])
        if found is None or shape is not None and math.prod(found) != math.prod(shape):
            if shape is not None:
                check.fail(f"{where}.values", "expect_values_shaped", count=math.prod(shape), shape=shape)
            check.fail(f"{where}.values", "expect_values")
        for value in flat_values(spec):
            if not math.isfinite(value):
                check.fail(f"{where}.values", "expect_finite")
    return spec


def describe_init(init: dict[str, Any], lang: str = "en") -> str:
    """``kaiming_normal``, ``normal(std=0.5)``: the scheme as the case names it; exact values and PyTorch's default
    in words of ``lang``."""
    scheme = init["init"]
    if scheme == "values":
        return say_in(lang, "describe_init_values", values=json.dumps(init["values"]))
    if scheme == "default":
        return say_in(lang, "describe_init_default")
    params = ", ".join(f"{k}={init[k]}" for k in ("value", "mean", "std", "low", "high", "gain") if k in init)
    return f"{scheme}({params})" if params else scheme
