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

from judge import messages
from judge.package.tolerance import DEFAULT, Tolerance
from judge.worker.protocol import SHAPE_DIMS, TYPE_CHARS, UNSUPPORTED, UNSUPPORTED_FIELDS

MAX_DIFFS = 20
Part = tuple[Any, ...]
"""one step of the way to a value: ``("item", "layer", 2)``, ``("key", "std")``, ``("length",)`` or ``("keys",)``"""
WORDS = {"length": "field_length", "keys": "field_keys"}
"""the steps said in words, by their message key"""
TYPE_WORDS = {"a bool": "type_bool", "a string": "type_string", "a list": "type_list", "a dict": "type_dict",
              "an integer": "type_integer", "a number": "type_number", "an unknown value": "type_unknown"}
"""what a value of the wrong type is called in a format error, by its message key (None is said as it is; an
unsupported object by the key and fields its worker sent, :func:`described_unsupported`)"""


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
    parts: tuple[Part, ...] = ()
    """the way to the value, step by step, from which :func:`field_in` says ``field`` in another language"""

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


def field_in(lang: str, difference: Difference) -> str:
    """Where a difference is, as a learner reading ``lang`` is told (``field`` itself in English): list entries
    named by the method's item word (:func:`item_in`), dict keys as they are."""
    if lang == "en":
        return difference.field
    said = [messages.say_in(lang, "field_item", item=item_in(lang, part[1]), n=part[2]) if part[0] == "item"
            else part[1] if part[0] == "key" else messages.say_in(lang, WORDS[part[0]]) for part in difference.parts]
    return " · ".join(said) or messages.say_in(lang, "field_result")


def item_in(lang: str, item: str) -> str:
    """A method's item word (``[[methods]] item``) in ``lang``: its translation when it is one of
    :data:`judge.messages_learner.ITEMS`, else as the problem wrote it (a module's class name: ``Linear``)."""
    return messages.say_in(lang, f"item_{item}") if f"item_{item}" in messages.CATALOGUE else item


def type_in(lang: str, described: Any) -> Any:
    """A format error's ``got`` or ``expected`` in ``lang``: a type's name or an unsupported value in words, anything
    else as it is."""
    return messages.say_in(lang, TYPE_WORDS[described]) if isinstance(described, str) and described in TYPE_WORDS \
        else _said(described, lang)


def described_unsupported(marker: Any) -> Any:
    """What a value the worker could not send is (its :data:`UNSUPPORTED` marker's content): said in the report's
    language where it is a key and fields a worker sends (:data:`UNSUPPORTED_FIELDS`, each field checked, as the
    submission may forge a marker), else its text as it is, shown escaped like every value of the submission's."""
    if isinstance(marker, dict) and marker.get("key") in UNSUPPORTED_FIELDS:
        fields = {k: v for k, v in marker.items() if k != "key"}
        if sorted(fields) == sorted(UNSUPPORTED_FIELDS[marker["key"]]) and all(
                _plain_field(name, value) for name, value in fields.items()):
            return messages.Said(marker["key"], **fields)
    return str(marker)


def _plain_field(name: str, value: Any) -> bool:
    """Whether an unsupported marker's field is one a worker writes: a shape of sizes, a short type name."""
    if name == "shape":
        return type(value) is list and len(value) <= SHAPE_DIMS and all(type(n) is int and n >= 0 for n in value)
    return type(value) is str and len(value) <= TYPE_CHARS


def said_value(value: Any, lang: str) -> Any:
    """A returned value as a report in ``lang`` shows it: each unsupported marker's content said in words."""
    if type(value) is list:
        return [said_value(v, lang) for v in value]
    if type(value) is dict:
        return {k: _said(described_unsupported(v), lang) if k == UNSUPPORTED else said_value(v, lang)
                for k, v in value.items()}
    return value


def _said(described: Any, lang: str) -> Any:
    return described.said_in(lang) if isinstance(described, messages.Said) else described


def _describe_type(value: Any) -> Any:
    if isinstance(value, dict) and UNSUPPORTED in value:
        return described_unsupported(value[UNSUPPORTED])
    return {bool: "a bool", str: "a string", type(None): "None", list: "a list", dict: "a dict",
            int: "an integer", float: "a number"}.get(type(value), "an unknown value")


def _walk(got: Any, expected: Any, path: str, parts: tuple[Part, ...], item: str, out: Comparison,
          tol: Tolerance) -> None:
    if out.format_error or len(out.differences) >= MAX_DIFFS:
        return
    here = path or "result"
    if isinstance(got, dict) and UNSUPPORTED in got:
        out.format_error = Difference(here, _describe_type(got), _describe_type(expected), "type", parts=parts)
        return
    kind = type(expected)
    if kind is float or kind is int:
        if type(got) not in (int, float):
            out.format_error = Difference(here, _describe_type(got), "a number", "type", parts=parts)
        elif not (tol.matches(_as_float(got), expected) if kind is float else got == expected):
            bound = tol.bound(expected) if kind is float else None
            out.differences.append(Difference(here, got, expected, "value", bound, parts))
    elif kind is str:
        if type(got) is not str:
            out.format_error = Difference(here, _describe_type(got), "a string", "type", parts=parts)
        elif got != expected:
            out.differences.append(Difference(here, got, expected, "value", parts=parts))
    elif kind is list:
        if type(got) is not list:
            out.format_error = Difference(here, _describe_type(got), "a list", "type", parts=parts)
        elif len(got) != len(expected):
            out.differences.append(Difference(_join(path, "length"), len(got), len(expected), "length",
                                              parts=(*parts, ("length",))))
        else:
            for i, (g, e) in enumerate(zip(got, expected)):
                _walk(g, e, _join(path, f"{item} {i + 1}"), (*parts, ("item", item, i + 1)), item, out, tol)
    elif kind is dict:
        if type(got) is not dict:
            out.format_error = Difference(here, _describe_type(got), "a dict", "type", parts=parts)
        elif set(got) != set(expected):
            out.differences.append(Difference(_join(path, "keys"), sorted(got), sorted(expected), "keys",
                                              parts=(*parts, ("keys",))))
        else:
            for key in expected:
                _walk(got[key], expected[key], _join(path, key), (*parts, ("key", key)), item, out, tol)
    elif got != expected:  # None and other literal JSON values
        out.differences.append(Difference(here, got, expected, "value", parts=parts))


def compare(got: Any, expected: Any, item: str = "item", tolerance: Tolerance = DEFAULT) -> Comparison:
    """Compare a decoded submission value with the expected one; ``item`` names list entries (``layer``)."""
    out = Comparison()
    _walk(got, expected, "", (), item, out, tolerance)
    return out
