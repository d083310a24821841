"""The shapes every kind shares: a validation helper, the hazard record, and the registries kinds join.

A kind is a small declarative class, as a DMOJ executor is: it names itself, its JSON fields and how to validate,
build and describe a spec of its kind. Registering is one decorator; nothing else in the judge lists kinds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, Iterator, NoReturn, TypeVar

from judge.package.bounds import SEED_MAX
from judge.package.kinds.lazy import nn, torch


@dataclass(frozen=True)
class Hazard:
    """Where a module's float32 output is fragile, for the generator's kink and underflow checks."""

    kinks: tuple[float, ...] = ()
    """input values where the derivative jumps (ReLU at 0.0): an input within noise of one flips a decision"""
    floor: float | None = None
    """an input below which the float32 output underflows towards exactly 0 (sigmoid: -80.0)"""


class Checker:
    """Validation helpers: every failure is one ``case_invalid`` error naming the file and the field, and what the
    field must be by its message key (``expect_*``, :mod:`judge.messages_cases`), said in the learner's language."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, where: str, what: str, **fields: Any) -> NoReturn:
        from judge.errors import BadInput  # here, not above: a worker builds kinds, never validates, never says

        raise BadInput("case_invalid", path=self.path, field=where, problem=phrase(what, **fields))

    def type(self, value: Any, kinds: type | tuple[type, ...], where: str, what: str, **fields: Any) -> Any:
        allowed = kinds if isinstance(kinds, tuple) else (kinds,)
        if not isinstance(value, allowed) or isinstance(value, bool) and bool not in allowed:
            self.fail(where, what, **fields)
        return value

    def number(self, value: Any, where: str, low: float | None = None, high: float | None = None,
               strict_low: bool = False) -> float:
        """A finite number within ``[low, high]`` (``(low, high]`` when ``strict_low``)."""
        what, fields = ("expect_number", {}) if low is None and high is None else (
            "expect_number_in", {"range": _range(low, high, strict_low)})
        self.type(value, (int, float), where, what, **fields)
        too_low = low is not None and (value <= low if strict_low else value < low)
        if math.isnan(value) or too_low or high is not None and value > high:
            self.fail(where, what, **fields)
        return value

    def integer(self, value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
        if type(value) is not int or low is not None and value < low or high is not None and value > high:
            if low is None and high is None:
                self.fail(where, "expect_integer")
            self.fail(where, "expect_integer_in", range=_range(low, high, False))
        return value

    def seed(self, value: Any, where: str) -> int:
        """A generator's seed: an integer every ``torch.Generator`` takes (:data:`judge.package.bounds.SEED_MAX`)."""
        if type(value) is not int or not 0 <= value <= SEED_MAX:
            self.fail(where, "expect_seed", bits=SEED_MAX.bit_length())
        return value

    def dims(self, value: Any, where: str, count: int | None = None, allow_zero: bool = False) -> list[int]:
        ok = isinstance(value, list) and (count is None or len(value) == count) and all(
            type(v) is int and (v > 0 or allow_zero and v == 0) for v in value)
        if not ok and count:
            self.fail(where, "expect_count_non_negative" if allow_zero else "expect_count_positive", count=count)
        if not ok:
            self.fail(where, "expect_dims_non_negative" if allow_zero else "expect_dims_positive")
        return value

    def choice(self, value: Any, options: Any, where: str) -> str:
        names = sorted(options)
        if not isinstance(value, str) or value not in options:
            self.fail(where, "expect_one_of", names=", ".join(f'"{n}"' for n in names))
        return value

    def fields(self, spec: dict[str, Any], allowed: set[str] | frozenset[str], where: str) -> None:
        """No key outside ``allowed``: a misspelt key fails here instead of being ignored."""
        for key in spec:
            if key not in allowed:
                self.fail(f"{where}.{key}", "expect_no_such_field", names=", ".join(sorted(allowed)))

    def names(self, value: Any, known: dict[str, Any], where: str, what: str) -> list[str]:
        """A list of names, each one of ``known``; ``what`` names them (``word_parameters``, ``word_objects``)."""
        self.type(value, list, where, "expect_list_of", items=phrase(what))
        for i, name in enumerate(value):
            if name not in known:
                self.one_of_the(f"{where}[{i}]", what, known, name)
        return value

    def one_of_the(self, where: str, what: str, known: dict[str, Any] | list[str], name: Any) -> NoReturn:
        """``name`` is none of ``known``, the names of ``what`` (``word_parameters``)."""
        self.fail(where, "expect_one_of_the", items=phrase(what), known=", ".join(known) or phrase("word_none"),
                  name=repr(name))


def phrase(key: str, /, **fields: Any) -> Any:
    """A message that is a field of another (:class:`judge.messages.Said`), imported when a case is refused: a worker
    builds kinds and never validates one, so the catalogue stays out of its imports (tests/test_footprint.py)."""
    from judge.messages import Said

    return Said(key, **fields)


def say_in(lang: str, key: str, /, **fields: Any) -> str:
    """:func:`judge.messages.say_in`, imported only when a kind describes itself: a worker builds kinds and never
    describes one, so the catalogue stays out of its imports (tests/test_footprint.py)."""
    from judge import messages

    return messages.say_in(lang, key, **fields)


def _range(low: float | None, high: float | None, strict_low: bool) -> Any:
    if high is None:
        return phrase("range_above" if strict_low else "range_at_least", low=low)
    if low is None:
        return phrase("range_at_most", high=high)
    return phrase("range_within", left="(" if strict_low else "[", low=low, high=high)


HIDDEN = "$hidden"
"""a concealed value's placeholder in a wire specification: ``{"$hidden": <its index in the hidden values>}``"""


def hide(value: float, hidden: list[float]) -> dict[str, int]:
    """Move ``value`` into ``hidden``; its placeholder."""
    hidden.append(float(value))
    return {HIDDEN: len(hidden) - 1}


def shown(placeholder: Any, hidden: tuple[float, ...]) -> float:
    """The value a placeholder stands for (the worker's side of :func:`hide`)."""
    return hidden[placeholder[HIDDEN]]


GEN = "gen"
"""the name of the generator in written code (:meth:`ObjectKind.code`), seeded as the builder seeds its own"""


@dataclass
class Code:
    """Python that builds one object as its kind's builder does: the same draws, in the same order, from a
    ``torch.Generator`` seeded alike, in float64, then cast (``judge show SLUG --code``)."""

    lines: list[str]
    """statements that leave the object in its variable"""
    imports: set[str] = field(default_factory=set)
    """the import statements the lines need besides ``torch``, ``nn`` and ``math``"""


def seeded_code(seed: int, lines: list[str], imports: set[str] | None = None) -> Code:
    """``lines`` after the seeding of :data:`GEN`, where any of them draws from it."""
    uses = any(f"generator={GEN}" in line for line in lines)
    return Code(([f"{GEN} = torch.Generator().manual_seed({seed})"] if uses else []) + lines, imports or set())


def literal(value: Any) -> str:
    """Python source for a JSON value (``float("inf")`` for infinities and NaN, which JSON cannot write)."""
    if isinstance(value, float) and not math.isfinite(value):
        return f'float("{value}")'
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


class ObjectKind:
    """A top-level object of a case: ``{"kind": name, ...}``."""

    name: ClassVar[str]
    fields: ClassVar[frozenset[str]]
    """the JSON keys this kind accepts besides ``kind``"""
    summary: ClassVar[str]
    """what it builds, in a few words (docs and error messages)"""

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        raise NotImplementedError

    def build(self, spec: dict[str, Any]) -> Any:
        raise NotImplementedError

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        """One line of plain language in ``lang`` (statements, the reports of visible cases)."""
        raise NotImplementedError

    def code(self, spec: dict[str, Any], name: str) -> Code | None:
        """Python that builds the object into the variable ``name`` bit for bit as :meth:`build` does, or None
        where it cannot be written without showing what the object hides (a custom layer's bug)."""
        raise NotImplementedError

    def conceal(self, spec: dict[str, Any], hidden: list[float]) -> dict[str, Any]:
        """The spec as it travels to a worker: every setting a built object must not show (it decides an answer
        by itself: a layer's bug, a head's wiring) moved into ``hidden`` (:func:`hide`)."""
        return spec

    def reveal(self, spec: dict[str, Any], hidden: tuple[float, ...]) -> dict[str, Any]:
        """The inverse of :meth:`conceal`, in the worker."""
        return spec


class LayerKind:
    """One layer of a model: a JSON object whose ``key`` names the kind (``{"linear": [4, 3], ...}``)."""

    key: ClassVar[str]
    fields: ClassVar[frozenset[str]] = frozenset()
    """the other JSON keys this layer accepts"""
    summary: ClassVar[str]

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        raise NotImplementedError

    def parameters(self, spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
        """The built layer's ``named_parameters()``: names and shapes, known before building."""
        return []

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        raise NotImplementedError

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        raise NotImplementedError

    def constructor(self, spec: dict[str, Any]) -> str | None:
        """The Python expression that constructs the layer before its values are set (``nn.Linear(8, 16)``), or
        None where it cannot be written without showing what the layer hides."""
        raise NotImplementedError

    def fill(self, spec: dict[str, Any], at: str) -> list[str]:
        """Statements (run under ``torch.no_grad()``) that set the layer ``at`` (a Python expression) as
        :meth:`build` does, drawing from :data:`GEN` in its order; none where the constructor's values are it."""
        return []

    def conceal(self, spec: dict[str, Any], hidden: list[float]) -> dict[str, Any]:
        """As :meth:`ObjectKind.conceal`, for one layer."""
        return spec

    def reveal(self, spec: dict[str, Any], hidden: tuple[float, ...]) -> dict[str, Any]:
        return spec


K = TypeVar("K")


class Registry(Generic[K]):
    """Named kinds of one family; ``register`` is the decorator a kind's class carries."""

    def __init__(self, family: str, attribute: str):
        self.family = family
        self.attribute = attribute
        self.kinds: dict[str, K] = {}

    def register(self, cls: type) -> type:
        name = getattr(cls, self.attribute)
        assert name not in self.kinds, f"{self.family} {name!r} registered twice"
        self.kinds[name] = cls()
        return cls

    def __getitem__(self, name: str) -> K:
        return self.kinds[name]

    def __contains__(self, name: object) -> bool:
        return name in self.kinds

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self.kinds))

    def names(self) -> list[str]:
        return sorted(self.kinds)


OBJECTS: Registry[ObjectKind] = Registry("object kind", "name")
LAYERS: Registry[LayerKind] = Registry("layer kind", "key")
