"""``export.json``: what ``judge export`` put into an autograder, read back by ``judge autograde``; and the scoring
rule both platforms share.

Scoring: the rule of :mod:`judge.report.points`, which ``judge grade`` applies too.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from judge import messages
from judge.errors import BadInput
from judge.report import points

PLATFORMS = ("gradescope", "prairielearn")
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
"""Gradescope's visibility settings, in its words (``docs/specs.md``)"""
CONFIG = "export.json"
DEFAULT_IMAGE = "torch-judge-grader:latest"
"""the PrairieLearn grader image's name when none is given (an instructor pushes it to a registry of theirs)"""


@dataclass(frozen=True)
class Exported:
    """One problem of an export."""

    slug: str
    points: float
    """what its hidden cases are worth together"""


@dataclass(frozen=True)
class Export:
    platform: str
    problems: tuple[Exported, ...]
    hidden_visibility: str = "after_due_date"
    """when students see the hidden cases' verdicts (Gradescope; PrairieLearn shows them at once)"""
    leaderboard: bool = False
    """Gradescope: add a leaderboard entry (hidden cases passed, CPU time)"""
    cooldown_minutes: float = 0.0
    """Gradescope: a submission less than this after the last judged one is not judged; its results are kept"""
    allow_weak_sandbox: bool = False
    """judge even where the workers cannot keep hidden cases secret (L0)"""
    judge: dict[str, str] = field(default_factory=dict)
    """the versions of the judge and torch that exported it"""

    def problem(self, slug: str) -> Exported:
        for exported in self.problems:
            if exported.slug == slug:
                return exported
        raise BadInput("autograde_unknown_problem", slug=slug, known=", ".join(p.slug for p in self.problems))

    def text(self) -> str:
        return json.dumps(asdict(self), indent=1) + "\n"

    @classmethod
    def read(cls, path: Path) -> Export:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            export = cls(**{**raw, "problems": tuple(Exported(**p) for p in raw["problems"])})
        except (OSError, ValueError, TypeError, KeyError) as exc:
            raise BadInput("autograde_bad_config", path=path, reason=f"{type(exc).__name__}: {exc}") from None
        if export.platform not in PLATFORMS or export.hidden_visibility not in VISIBILITIES or not export.problems:
            raise BadInput("autograde_bad_config", path=path, reason="unknown platform or visibility, or no problem")
        return export


def case_points(exported: Exported, report: dict[str, Any]) -> list[tuple[float, float]]:
    """Per test of ``report``, in order: (points earned, points possible), by the rule ``judge grade`` shares."""
    return points.case_points(report["tests"], exported.points)


def samples_only(report: dict[str, Any]) -> dict[str, Any]:
    """The report as a student may see it at once: its sample cases, with a verdict decided by them alone, and
    labelled so (never a bare "verdict: accepted" where hidden cases were judged too)."""
    from judge.judging.verdict import Verdict, overall

    tests = [t for t in report["tests"] if not t["extra_data"]["hidden"]]
    label = {"verdict_label": messages.say("platform_samples_verdict")} if len(tests) < len(report["tests"]) else {}
    verdicts = [Verdict(t["extra_data"]["verdict"]) if t["extra_data"]["verdict"] else None for t in tests]
    verdict = "internal_error" if report["verdict"] == "internal_error" else overall(verdicts).value
    passed = sum(t["status"] == "passed" for t in tests)
    return {**report, "mode": "run", "tests": tests, "passed": passed, "total": len(tests), "verdict": verdict, **label}
