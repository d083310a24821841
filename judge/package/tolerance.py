"""A problem's tolerance for numbers: its numbers and the rule's text, both from ``[comparison]`` of problem.toml.

A number passes when ``|got - expected| <= max(absolute, relative * |expected|) + slack``. The default,
``absolute = relative = 1e-4`` and ``slack = 1e-9``, is the rule of ``docs/numerics.md`` §3:
``|got - expected| <= 1e-4 * max(1, |expected|) + 1e-9``. The relative part keeps float32 statistics in the
thousands comparable, the slack absorbs the binary representation of 4-decimal values.

The tolerance is problem data: the comparison, the statement, the report, the hints and the generator's noise
rule all read these numbers, and the rule's text is derived from them here, never written by hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

SENTENCES = {
    "en": "A number is accepted when `{formula}`, where *expected* is the reference value.",
    "zh": "当 `{formula}` 时数值判为正确，其中 *expected* 是参考解的值。",
}
"""the rule as one sentence of a statement, by language"""


@dataclass(frozen=True)
class Tolerance:
    relative: float = 1e-4
    """times ``|expected|``"""
    absolute: float = 1e-4
    """the band for every expected value whose relative band is narrower"""
    slack: float = 1e-9
    """added to both: the binary representation error of decimal values"""

    def bound(self, expected: float) -> float:
        """How far a number may stray from ``expected``."""
        return max(self.absolute, self.relative * abs(expected)) + self.slack

    def matches(self, got: float, expected: float) -> bool:
        """NaN matches only NaN and an infinity only the same infinity; other numbers within :meth:`bound`."""
        if math.isnan(expected) or math.isnan(got):
            return math.isnan(expected) and math.isnan(got)
        if math.isinf(expected) or math.isinf(got):
            return got == expected
        return abs(got - expected) <= self.bound(expected)

    @property
    def formula(self) -> str:
        """The rule as a formula, e.g. ``|got - expected| <= 1e-4 * max(1, |expected|) + 1e-9``."""
        if self.absolute == self.relative:
            band = f"{_number(self.relative)} * max(1, |expected|)"
        elif self.relative == 0:
            band = f"{_number(self.absolute)}"
        elif self.absolute == 0:
            band = f"{_number(self.relative)} * |expected|"
        else:
            band = f"max({_number(self.absolute)}, {_number(self.relative)} * |expected|)"
        return f"|got - expected| <= {band}" + (f" + {_number(self.slack)}" if self.slack else "")

    def sentence(self, lang: str = "en") -> str:
        """The rule as a sentence of a statement in ``lang`` (English when there is none in that language)."""
        return SENTENCES.get(lang, SENTENCES["en"]).format(formula=self.formula)


DEFAULT = Tolerance()


def _number(value: float) -> str:
    """A number as an author writes it: ``1e-4`` rather than ``0.0001``, ``0.5`` rather than ``5e-1``."""
    plain = f"{value:.6g}"
    mantissa, exponent = f"{value:.6e}".split("e")
    scientific = f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent)}"
    return scientific if abs(value) < 1 and len(scientific) < len(plain) else plain


def parse_tolerance(table: Any) -> Tolerance:
    """The tolerance of a ``[comparison]`` table; ValueError says what is wrong with it."""
    if not isinstance(table, dict):
        raise ValueError("[comparison] must be a table")
    names = {f.name for f in fields(Tolerance)}
    unknown = sorted(set(table) - names)
    if unknown:
        raise ValueError(f"[comparison] knows only {', '.join(sorted(names))}, not {', '.join(unknown)}")
    for name, value in table.items():
        if type(value) not in (int, float) or not math.isfinite(value) or value < 0:
            raise ValueError(f"[comparison] {name} must be a finite number >= 0, not {value!r}")
    tolerance = Tolerance(**{k: float(v) for k, v in table.items()})
    if tolerance.relative == 0 and tolerance.absolute == 0:
        raise ValueError("[comparison] needs relative or absolute above 0")
    return tolerance
