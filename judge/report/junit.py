"""JUnit XML's view of a report: the element each case becomes, and counts that agree with those elements.

A case whose answer is wrong (``wrong_answer``, ``output_format_error``) is a ``<failure>``; one that crashed,
hit a limit or could not be loaded (``runtime_error``, ``time_limit_exceeded``, ``memory_limit_exceeded``,
``compile_error``, ``internal_error``) is an ``<error>``; one that was not run is ``<skipped>``. When the judge
itself failed, one more test case named ``judge`` carries that ``<error>``. A ``<testcase>``'s ``time`` is the
CPU time the submission used on that case, as measured: a case nothing was measured on (not run, or a submission
no worker could load) has none, and neither has a hidden case whose figures are coarse (a bound, not a measure).
A ``<testsuite>``'s is the sum of its cases' (the wall time of the whole judgement is the ``wall_time_s``
property): readers add the cases' times up to the suite's.
"""

from __future__ import annotations

from typing import Any

from judge import messages
from judge.judging.verdict import Verdict

FAILURES = frozenset({Verdict.WRONG_ANSWER, Verdict.OUTPUT_FORMAT_ERROR})
TIME_MEANS = messages.say("junit_time")
"""the ``time`` property: what the ``time`` attributes measure"""


def outcome(test: dict[str, Any]) -> str:
    """``passed``, ``failure``, ``error`` or ``skipped`` for one of a report's ``tests``."""
    verdict = test["extra_data"]["verdict"]
    if verdict is None:
        return "skipped"
    if verdict in (Verdict.ACCEPTED, Verdict.RAN):
        return "passed"
    return "failure" if verdict in FAILURES else "error"


def measured(test: dict[str, Any]) -> float | None:
    """The CPU seconds measured on one of a report's ``tests``; None when there is no measure to give."""
    extra = test["extra_data"]
    return None if extra.get("coarse") else extra["cpu_time_s"]


def counts(report: dict[str, Any]) -> dict[str, Any]:
    """``tests``, ``failures``, ``errors``, ``skipped`` and ``time`` of one report's test suite."""
    outcomes = [outcome(t) for t in report["tests"]]
    judge_failed = 1 if report["judge"].get("judge_error") else 0
    return {"tests": len(outcomes) + judge_failed, "failures": outcomes.count("failure"),
            "errors": outcomes.count("error") + judge_failed, "skipped": outcomes.count("skipped"),
            "time": round(sum(measured(t) or 0.0 for t in report["tests"]), 4)}


def totals(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The sums of :func:`counts` over several reports (a class)."""
    each = [counts(r) for r in reports]
    return {key: round(sum(c[key] for c in each), 4) if key == "time" else sum(c[key] for c in each)
            for key in ("tests", "failures", "errors", "skipped", "time")}
