"""The leak check of ``judge gen`` and ``judge verify``: no hidden answer may be readable before it is given.

A worker receives one call at a time (:meth:`judge.package.cases.Case.call_request`), but it lives across calls
and cases, so everything it received earlier may still be in its memory when a hidden call runs. The check
replays what a worker is sent, in judging order (sample cases, then hidden ones, each group in file-name order;
calls in order), and refuses a hidden call whose expected output is *contained* in something *seen* before it.

* **Seen before a call**: every call request sent earlier (its literal arguments and the specifications of the
  objects it names), and every sample case's expected outputs, which learners see in statements and in
  ``judge run``. The call's own request is not counted: its inputs are what it computes from, and an answer may
  rightly equal one of them (a clipped norm is ``max_norm``; a chosen threshold is one of the given values).
* **Contained**: some *telling part* of the expected output *matches* a sub-structure of something seen.
  Sub-structures are the value itself, its list items and its dict values, recursively (dict keys are names,
  not values). Numbers match within the problem's comparison rule (the tolerance a submission would be judged
  by); strings, booleans and None match when equal; lists match item by item, dicts key by key.
* **Telling parts** of an output are the output itself and every list or dict inside it that holds at least one
  *specific* leaf. A lone number or string inside a larger output is not a part on its own: with a few hundred
  numbers in a problem's literals, some field of some answer equals one of them by chance, and nothing tells a
  submission which one belongs to which call; a whole record or list that matches is a copy, not a chance.
* **Specific** leaves carry more than a guess would: a number is specific unless it lies within the tolerance
  of a round one (at most two significant digits: 0, 1, -1, 0.5, 0.25, 1.5, 20, 3e-4, 2000) or of a power of two
  (counts, halvings, loss scales); a string is specific unless it is a short word of letters, digits, ``_``,
  ``.`` and ``-`` (the labels and names a statement lists, ``"no_grad"``, ``"0.weight"``); booleans and None
  never are. An answer made only of such values can be guessed from the statement as well as read.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Iterator

from judge.package.cases import Case
from judge.package.problem import Problem
from judge.package.tolerance import Tolerance

WORD = re.compile(r"[A-Za-z0-9_.\-]{0,40}")
"""a label or a name: the strings a statement lists"""
ROUND_DIGITS = 2
POWERS_OF_TWO = range(-20, 21)


@dataclass(frozen=True)
class Leak:
    """A hidden call whose expected output can be read from something a worker saw before it."""

    case: str
    call: int
    method: str
    part: str
    """where in the expected output (``""``: all of it, ``[1].stats``)"""
    seen: str
    """what holds it: a call's request or a sample's expected output, and where inside"""

    def __str__(self) -> str:
        part = f" (at {self.part})" if self.part else ""
        return f"{self.case} call {self.call} ({self.method}): its expected output{part} is in {self.seen}"


def _round(value: float, tolerance: Tolerance) -> bool:
    if value == 0 or not math.isfinite(value):
        return True
    magnitude = abs(value)
    exponent = math.floor(math.log10(magnitude)) - (ROUND_DIGITS - 1)
    nearest = round(magnitude / 10 ** exponent) * 10 ** exponent
    if tolerance.matches(nearest, magnitude):
        return True
    power = 2.0 ** round(math.log2(magnitude))
    return round(math.log2(magnitude)) in POWERS_OF_TWO and tolerance.matches(power, magnitude)


def specific(value: Any, tolerance: Tolerance) -> bool:
    """Whether one leaf tells more than a guess (module docstring)."""
    if type(value) in (int, float):
        return not _round(float(value), tolerance)
    if isinstance(value, str):
        return WORD.fullmatch(value) is None
    return False


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def parts(value: Any, tolerance: Tolerance, path: str = "") -> Iterator[tuple[str, Any]]:
    """The telling parts of an expected output, with their paths: the output itself when it is a specific leaf,
    and every list or dict in it that holds a specific leaf."""
    if isinstance(value, (dict, list)):
        if any(specific(leaf, tolerance) for leaf in _leaves(value)):
            yield path, value
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            if isinstance(item, (dict, list)):
                yield from parts(item, tolerance, f"{path}.{key}" if isinstance(value, dict) else f"{path}[{key}]")
    elif not path and specific(value, tolerance):
        yield path, value


def matches(seen: Any, expected: Any, tolerance: Tolerance) -> bool:
    """Whether ``seen`` equals ``expected`` under the comparison rule (numbers within the tolerance)."""
    if type(seen) in (int, float) and type(expected) in (int, float):
        return tolerance.matches(float(seen), float(expected))
    if isinstance(expected, dict):
        return isinstance(seen, dict) and seen.keys() == expected.keys() and all(
            matches(seen[k], v, tolerance) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(seen, list) and len(seen) == len(expected) and all(
            matches(s, e, tolerance) for s, e in zip(seen, expected))
    return type(seen) is type(expected) and seen == expected


def _subs(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _subs(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _subs(item, f"{path}[{index}]")


def _sent(case: Case, index: int) -> list[tuple[str, Any]]:
    """Every sub-structure of one call's request, labelled for a person."""
    request = case.call_request(index)
    where = f"the request of {case.id} call {index}"
    return [(f"{where}{path}", sub) for path, sub in _subs({"args": request["args"], "objects": request["objects"]}, "")
            if path]


def find_leaks(problem: Problem, outputs: dict[str, list[Any]] | None = None, device: str = "cpu") -> list[Leak]:
    """Every hidden call whose expected output leaks (module docstring). ``outputs``: expected outputs by case id
    (default: the stored ones on ``device``), so ``judge gen`` can check what it is about to write."""
    tolerance = problem.tolerance
    seen: list[tuple[str, Any]] = []
    found = []
    for case in problem.cases:
        expected = outputs.get(case.id) if outputs is not None else case.outputs(device)
        for index in range(len(case.calls)):
            if case.hidden and expected is not None:
                found += _leaks(case, index, expected[index], seen, tolerance)
            seen += _sent(case, index)
        if not case.hidden and expected is not None:
            seen += [(f"the expected output of {case.id} call {i}{path}", sub)
                     for i, output in enumerate(expected) for path, sub in _subs(output, "")]
    return found


def _leaks(case: Case, index: int, expected: Any, seen: list[tuple[str, Any]], tolerance: Tolerance) -> list[Leak]:
    method = case.calls[index]["method"]
    for part, value in parts(expected, tolerance):
        where = next((label for label, sub in seen if matches(sub, value, tolerance)), None)
        if where is not None:
            return [Leak(case.id, index, method, part, where)]
    return []
