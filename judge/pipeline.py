"""Judge one submission file on a problem: the whole flow from a path to a report.

problem package -> cases -> worker -> result -> comparison -> verdict -> report

Above judging and reporting, below the front ends (the command line, grading, practice, author tools): judging
decides verdicts and knows nothing of reports; this module joins the two.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from judge.judging.session import CaseResult, Session, judge_cases
from judge.judging.submission import Plan, make_plan, read_submission
from judge.judging.verdict import Verdict
from judge.machine import torch_version
from judge.package.problem import Problem
from judge.report.build import build_report
from judge.worker import sandbox
from judge.worker.runner import Launch

OnCase = Callable[[int, CaseResult], None]
"""told each case's index and result as soon as its verdict is known"""


@dataclass
class Judge:
    """Judges submissions one after another with one way of starting workers (``launch``)."""

    plan: Plan
    launch: Launch = sandbox.start
    level: str = ""
    """the security level of the workers ``launch`` starts, as reports print it (default: :func:`sandbox.level`)"""
    verified: bool = False
    """whether a worker from ``launch`` has shown that it builds every case bit-identically, so later
    submissions skip that check (every worker it starts runs the same code on the same machine)"""

    def judge(self, path: Path, data: bytes, on_case: OnCase | None = None) -> dict[str, Any]:
        """The report for the submission at ``path`` whose bytes, already read and checked, are ``data``;
        ``on_case`` hears each case's verdict as soon as it is known."""
        plan, started = self.plan, time.monotonic()
        session = Session(path, plan.cases, plan.methods, plan.device, plan.memory_bytes, self.launch, self.verified)
        try:
            results = self._cases(session, on_case)
        finally:
            session.close()
        self.verified = session.verified
        return self._report(path, data, session, results, time.monotonic() - started)

    def unjudgeable(self, path: Path, data: bytes, reason: str) -> dict[str, Any]:
        """The report for a submission no worker can load (unreadable, not Python): a compile error on every
        case, exactly as for a file with a syntax error, and no worker is started."""
        plan = self.plan
        session = Session(path, plan.cases, plan.methods, plan.device, plan.memory_bytes, self.launch)
        session.failed_start = (Verdict.COMPILE_ERROR, {"exc": "NotJudgeable", "msg": reason})
        return self._report(path, data, session, self._cases(session), 0.0)

    def _cases(self, session: Session, on_case: OnCase | None = None) -> list[CaseResult]:
        plan = self.plan
        return judge_cases(session, plan.limits, plan.expected, plan.items, plan.problem.tolerance, on_case)

    def _report(self, path: Path, data: bytes, session: Session, results: list[CaseResult],
                wall_s: float) -> dict[str, Any]:
        plan = self.plan
        environment = {"torch": torch_version(), "device": plan.device,
                       "expected_device": sorted(set(plan.expected_devices)),
                       "security_level": self.level or sandbox.level(plan.device)}
        if session.failed_start:
            environment["startup_error"] = session.failed_start[1]
        return build_report(
            mode=plan.mode, problem=plan.problem,
            submission={"path": str(path), "sha256": hashlib.sha256(data).hexdigest()},
            results=results, expected=plan.expected, environment=environment, wall_s=wall_s,
        )


def judge_file(problem: Problem, path: Path, mode: str, device: str) -> dict[str, Any]:
    data = read_submission(path)
    return Judge(make_plan(problem, mode, device)).judge(path, data)


def failure_report(problem: Problem | None, path: Path, mode: str, device: str, reason: str) -> dict[str, Any]:
    """The report written when the judge itself failed: the verdict is ``internal_error``, never the learner's."""
    return build_report(
        mode=mode, problem=problem or _Unknown(), submission={"path": str(path), "sha256": ""},
        results=[], expected=[], environment={"torch": torch_version(), "device": device, "expected_device": [],
                                               "security_level": sandbox.level(device)},
        wall_s=0.0, judge_error=reason,
    )


class _Unknown:
    slug = title = "unknown"
