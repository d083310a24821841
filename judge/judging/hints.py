"""Recognise a known mistake from a submission's outputs on the sample cases, so the report can name it.

The hint catalogue is data: the ``[[pitfalls]]`` of problem.toml that carry a ``hint``. ``judge gen`` runs each
hinted pitfall's declared wrong submission on the sample cases and stores, per case, what it returns on every
call where that departs from the expected output (``mistakes``, see :mod:`judge.package`). Nothing here knows a
problem: a mistake is recognised by comparing outputs alone.

A submission *carries* a mistake on a call when, under the comparison rule, its output agrees with the
mistake's on every field where the mistake departs from the expected output; when the departure is in the
structure (a length, the keys), or too large to list, it must agree everywhere. Other fields may differ: a
second mistake does not hide the first. A case shows a mistake when the submission carries it on every call
that was judged and on which the mistake departs, and there is at least one such call. Sample cases are the
only ones with ``mistakes``, so a hint never says anything about hidden data.
"""

from __future__ import annotations

from typing import Any

from judge.judging.compare import MAX_DIFFS, compare
from judge.judging.session import CallResult
from judge.package.cases import Case
from judge.package.tolerance import DEFAULT, Tolerance

STRUCTURE = ("length", "keys")


def carries(got: Any, mistake: Any, expected: Any, tolerance: Tolerance = DEFAULT) -> bool:
    """Whether ``got`` agrees with ``mistake`` wherever ``mistake`` departs from ``expected``."""
    departs = compare(mistake, expected, tolerance=tolerance)
    if departs.accepted or departs.format_error:
        return False
    differs = compare(got, mistake, tolerance=tolerance)
    if differs.accepted:
        return True
    whole = len(departs.differences) >= MAX_DIFFS or any(
        d.problem in STRUCTURE for d in departs.differences + differs.differences)
    if whole or differs.format_error:
        return False
    return not {d.field for d in departs.differences} & {d.field for d in differs.differences}


def recognise(case: Case, calls: list[CallResult], expected: list[Any],
              tolerance: Tolerance = DEFAULT) -> dict[int, list[str]]:
    """The pitfalls ``case`` shows, by the index of the call that shows them (the judged calls are ``calls``)."""
    by_pitfall: dict[str, dict[int, Any]] = {}
    for mistake in case.mistakes:
        by_pitfall.setdefault(mistake.pitfall, {})[mistake.call] = mistake.output
    shown: dict[int, list[str]] = {}
    for pitfall, outputs in by_pitfall.items():
        judged = [i for i in outputs if i < len(calls)]
        if judged and all(calls[i].comparison is not None and carries(calls[i].value, outputs[i], expected[i], tolerance)
                          for i in judged):
            for i in judged:
                shown.setdefault(i, []).append(pitfall)
    return shown
