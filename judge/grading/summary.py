"""The class figures, computed from stored results only (never from what a run happened to judge itself)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judge.judging.verdict import Verdict


@dataclass(frozen=True)
class Row:
    """One student's line in the summaries."""

    student: str
    verdict: str
    passed: int
    total: int
    score: float
    max_score: float
    time_s: float
    """wall seconds the judgement took"""
    source: str
    """the submission's path as the judge found it"""

    @classmethod
    def of(cls, report: dict[str, Any]) -> Row:
        grading = report["grading"]
        return cls(grading["student"], report["verdict"], report["passed"], report["total"], report["score"],
                   report["max_score"], report["execution_time"], grading["source"])


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
            "students": [row.__dict__ for row in self.rows],
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


def summarise(slug: str, title: str, shard: str | None, reports: list[dict[str, Any]],
              missing: int = 0) -> ClassSummary:
    """The summary of the stored ``reports`` (each with its ``grading`` block), in student order; ``missing``
    submissions of the class were not judged (an interrupted run)."""
    reports = sorted(reports, key=lambda r: r["grading"]["student"])
    return ClassSummary(slug, title, shard, [Row.of(r) for r in reports], _case_rates(reports), missing)
