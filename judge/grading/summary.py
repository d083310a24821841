"""The class figures, computed from stored results only (never from what a run happened to judge itself)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from judge.grading.discover import Skipped
from judge.judging.verdict import Verdict
from judge.report.points import case_points, default_points

NOT_RUN = "not run"
"""a case's cell when it was not run (or the judge failed before it)"""


@dataclass(frozen=True)
class Row:
    """One student's line in the summaries."""

    student: str
    verdict: str
    passed: int
    total: int
    points: float
    """what the hidden cases they passed are worth (:mod:`judge.report.points`)"""
    max_points: float
    time_s: float
    """wall seconds the judgement took: whole seconds, rounded up, unless the figures are exact"""
    source: str
    """the submission's path relative to the class folder"""
    cases: dict[str, str] = field(default_factory=dict)
    """each case's verdict (``not run`` when it has none), by case id"""

    @property
    def percent(self) -> float:
        return round(100 * self.points / self.max_points, 1) if self.max_points else 0.0

    @classmethod
    def of(cls, report: dict[str, Any], points: float, exact: bool) -> Row:
        grading, tests = report["grading"], report["tests"]
        seconds = report["execution_time"]
        return cls(grading["student"], report["verdict"], report["passed"], report["total"],
                   round(sum(got for got, _ in case_points(tests, points)), 4), points,
                   round(seconds, 2) if exact else float(math.ceil(seconds)), grading["source"],
                   {t["extra_data"]["case"]: t["extra_data"]["verdict"] or NOT_RUN for t in tests})

    def as_json(self) -> dict[str, Any]:
        return {**self.__dict__, "percent": self.percent}


@dataclass(frozen=True)
class CaseRate:
    """How many students passed one case of the problem."""

    case: str
    hidden: bool
    passed: int
    students: int

    @property
    def rate(self) -> float:
        return self.passed / self.students if self.students else 0.0


@dataclass(frozen=True)
class ClassSummary:
    slug: str
    title: str
    shard: str | None
    """``K/N`` when this is one shard of a class, None for a whole class"""
    rows: list[Row]
    cases: list[CaseRate]
    missing: int = 0
    """submissions found but not judged yet: a run stopped with Ctrl-C writes what it has, marked incomplete"""
    points: float = 0.0
    """what the problem is worth"""
    skipped: list[Skipped] = field(default_factory=list)
    """entries of the class folder that are not submissions"""
    exact: bool = False
    """whether hidden cases' figures (and every judgement's time) are exact: for instructors only"""

    @property
    def verdicts(self) -> dict[str, int]:
        """Students per verdict, in the verdicts' order, only verdicts that occur."""
        counts = {v.value: sum(r.verdict == v.value for r in self.rows) for v in Verdict}
        return {verdict: n for verdict, n in counts.items() if n}

    def as_json(self) -> dict[str, Any]:
        return {
            "problem": {"slug": self.slug, "title": self.title},
            "shard": self.shard,
            "incomplete": self.missing,
            "points": self.points,
            "exact_figures": self.exact,
            "students": [row.as_json() for row in self.rows],
            "skipped": [entry.__dict__ for entry in self.skipped],
            "verdicts": self.verdicts,
            "cases": [{**rate.__dict__, "rate": round(rate.rate, 4)} for rate in self.cases],
        }


def _case_rates(reports: list[dict[str, Any]]) -> list[CaseRate]:
    passed: dict[str, int] = {}
    hidden: dict[str, bool] = {}
    for report in reports:
        for test in report["tests"]:
            case = test["extra_data"]["case"]
            passed[case] = passed.get(case, 0) + (test["status"] == "passed")
            hidden[case] = test["extra_data"]["hidden"]
    return [CaseRate(case, hidden[case], n, len(reports)) for case, n in passed.items()]


def problem_points(reports: list[dict[str, Any]]) -> float:
    """What the problem is worth by default: one point per hidden case (of the reports that judged any case)."""
    tests = next((r["tests"] for r in reports if r["tests"]), [])
    return default_points(sum(t["extra_data"]["hidden"] for t in tests), len(tests))


def summarise(slug: str, title: str, shard: str | None, reports: list[dict[str, Any]], missing: int = 0, *,
              points: float | None = None, skipped: list[Skipped] | None = None,
              exact: bool = False) -> ClassSummary:
    """The summary of the stored ``reports`` (each with its ``grading`` block), in student order; ``missing``
    submissions of the class were not judged (an interrupted run); ``points``: what the problem is worth
    (default: :func:`problem_points`); ``exact``: whether the reports' hidden figures are exact."""
    reports = sorted(reports, key=lambda r: r["grading"]["student"])
    worth = points if points is not None else problem_points(reports)
    return ClassSummary(slug, title, shard, [Row.of(r, worth, exact) for r in reports], _case_rates(reports),
                        missing, worth, sorted(skipped or [], key=lambda s: s.entry), exact)
