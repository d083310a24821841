"""The comparison of a submission's value with the expected one.

A number passes when it is within the problem's tolerance (:class:`judge.package.tolerance.Tolerance`,
by default ``|got - expected| <= 1e-4 * max(1, |expected|) + 1e-9``). NaN matches only NaN and an
infinity only the same infinity. Strings and integers compare exactly; list lengths and dict keys must match
exactly. The submission is never re-rounded. ``docs/numerics.md`` §3 has the measurements.

The expected value is trusted (the reference's output); ``got`` has already been decoded from the worker's JSON
and is checked here by exact type: a ``bool`` or anything else that is not ``int``/``float`` is not a number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from judge.package.tolerance import DEFAULT, Tolerance

MAX_DIFFS = 20


@dataclass(frozen=True)
class Difference:
    field: str
    """where, e.g. ``layer 2 · std``"""
    got: Any
    expected: Any
    problem: str
    """``value``, ``length``, ``keys`` or ``type``"""
    tolerance: float | None = None
    """how far a number may stray from ``expected`` (None for anything else)"""

    @property
    def error(self) -> float | None:
        if type(self.got) in (int, float) and type(self.expected) in (int, float):
            return abs(_as_float(self.got) - _as_float(self.expected))
        return None


@dataclass
class Comparison:
    differences: list[Difference] = field(default_factory=list)
    format_error: Difference | None = None
    """set when ``got`` cannot be an answer at all (wrong type, an unsupported object)"""

    @property
    def accepted(self) -> bool:
        return not self.differences and self.format_error is None


def _as_float(value: int | float) -> float:
    """Python ints are unbounded; one too large for a float is an infinity for comparison's sake."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _join(path: str, part: str) -> str:
    return f"{path} · {part}" if path else part


def _describe_type(value: Any) -> str:
    if isinstance(value, dict) and "$unsupported" in value:
        return str(value["$unsupported"])
    return {bool: "a bool", str: "a string", type(None): "None", list: "a list", dict: "a dict",
            int: "an integer", float: "a number"}.get(type(value), "an unknown value")


def _walk(got: Any, expected: Any, path: str, item: str, out: Comparison, tol: Tolerance) -> None:
    if out.format_error or len(out.differences) >= MAX_DIFFS:
        return
    if isinstance(got, dict) and "$unsupported" in got:
        out.format_error = Difference(path or "result", _describe_type(got), _describe_type(expected), "type")
        return
    kind = type(expected)
    if kind is float or kind is int:
        if type(got) not in (int, float):
            out.format_error = Difference(path or "result", _describe_type(got), "a number", "type")
        elif not (tol.matches(_as_float(got), expected) if kind is float else got == expected):
            bound = tol.bound(expected) if kind is float else None
            out.differences.append(Difference(path or "result", got, expected, "value", bound))
    elif kind is str:
        if type(got) is not str:
            out.format_error = Difference(path or "result", _describe_type(got), "a string", "type")
        elif got != expected:
            out.differences.append(Difference(path or "result", got, expected, "value"))
    elif kind is list:
        if type(got) is not list:
            out.format_error = Difference(path or "result", _describe_type(got), "a list", "type")
        elif len(got) != len(expected):
            out.differences.append(Difference(_join(path, "length"), len(got), len(expected), "length"))
        else:
            for i, (g, e) in enumerate(zip(got, expected)):
                _walk(g, e, _join(path, f"{item} {i + 1}"), item, out, tol)
    elif kind is dict:
        if type(got) is not dict:
            out.format_error = Difference(path or "result", _describe_type(got), "a dict", "type")
        elif set(got) != set(expected):
            out.differences.append(Difference(_join(path, "keys"), sorted(got), sorted(expected), "keys"))
        else:
            for key in expected:
                _walk(got[key], expected[key], _join(path, key), item, out, tol)
    elif got != expected:  # None and other literal JSON values
        out.differences.append(Difference(path or "result", got, expected, "value"))


def compare(got: Any, expected: Any, item: str = "item", tolerance: Tolerance = DEFAULT) -> Comparison:
    """Compare a decoded submission value with the expected one; ``item`` names list entries (``layer``)."""
    out = Comparison()
    _walk(got, expected, "", item, out, tolerance)
    return out
