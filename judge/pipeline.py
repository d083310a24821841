"""Judge one submission file on a problem: the whole flow from a path to a report.

problem package -> cases -> worker -> result -> comparison -> verdict -> report

Above judging and reporting, below the front ends (the command line, grading, practice, the site, exporters):
judging decides verdicts and knows nothing of reports; this module joins the two. Every front end judges through
:func:`judge_guarded`, so the judge's own failures become a report in one way; a front end chooses only how it
shows the report and where it records it.
"""

from __future__ import annotations

import hashlib
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from judge import messages
from judge.errors import BadInput, JudgeError
from judge.judging.session import CaseResult, Session, judge_cases
from judge.judging.intake import read_file
from judge.judging.plan import Plan, make_plan
from judge.judging.submission import check_python
from judge.judging.verdict import Verdict
from judge.machine import torch_version
from judge.package.problem import Problem
from judge.report.build import build_report
from judge.worker import probe
from judge.worker.forkserver import ForkServer
from judge.worker.launch import Launch, fresh

OnCase = Callable[[int, CaseResult], None]
"""told each case's index and result as soon as its verdict is known"""


@dataclass(frozen=True)
class Submitted:
    """One submission as a front end hands it over: its file, its bytes read once, and how reports name it."""

    path: Path
    data: bytes
    """the file's bytes, already read and checked (empty when it could not be read)"""
    label: str | None = None
    """what reports and the history call its source (``notebook``, ``browser``); None: its path"""
    unjudgeable: str | None = None
    """why no worker can load it (unreadable, not Python, ...): judged a compile error on every case; else None"""

    @property
    def source(self) -> str:
        return self.label or str(self.path)

    @classmethod
    def read(cls, path: Path, label: str | None = None, beneath: Path | None = None) -> Submitted:
        """The file at ``path`` as untrusted input (no link followed; ``beneath``: the class folder it lies in).
        One that cannot be read or is not Python is recorded as unjudgeable, not raised (grading and the site
        judge it a compile error; the command line calls :func:`read_submission` itself to refuse it as bad
        input). A file refused unread (a link, a FIFO, too big...) has no bytes here, so no report quotes it."""
        try:
            data = read_file(path, beneath=beneath)
        except BadInput as exc:
            return cls(path, b"", label, str(exc))
        try:
            return cls(path, check_python(path, data), label)
        except BadInput as exc:
            return cls(path, data, label, str(exc))


@dataclass
class Judge:
    """Judges submissions one after another with one way of starting workers (``launch``)."""

    plan: Plan
    launch: Launch | None = None
    """how workers start (default: a fresh interpreter each, under the plan's confinement)"""
    level: str = ""
    """the security level of the workers ``launch`` starts, as reports print it (default: the plan's)"""
    verified: bool = False
    """whether a worker from ``launch`` has shown that it builds every case bit-identically, so later
    submissions skip that check (every worker it starts runs the same code on the same machine)"""
    exact: bool = False
    """whether reports give hidden cases' figures exactly (the author's ``judge verify``, who holds the cases);
    else coarse (:func:`judge.report.build.coarse`)"""
    workers_lost: Callable[[], bool] = field(default=lambda: False)
    """whether the workers' warm process died (its workers with it): a report given meanwhile is not the
    submission's doing"""

    def __post_init__(self) -> None:
        self.launch = self.launch or fresh(self.plan.confinement)
        self.verified = self.verified or self.plan.builds_checked
        self.level = self.level or self.plan.confinement.describe()

    @classmethod
    def forked(cls, plan: Plan, server: ForkServer) -> Judge:
        """Workers forked from ``server``'s warm process."""
        return cls(plan, server.launch, server.level, workers_lost=lambda: not server.alive)

    def judge(self, path: Path, data: bytes, on_case: OnCase | None = None, label: str | None = None) -> dict[str, Any]:
        """The report for the submission at ``path`` whose bytes, already read and checked, are ``data``;
        ``on_case`` hears each case's verdict as soon as it is known. Raises what the judge itself fails with."""
        plan, started = self.plan, time.monotonic()
        session = Session(data, plan.cases, plan.methods, plan.device, plan.memory_bytes, self.launch, self.verified)
        try:
            results = self._cases(session, on_case)
        finally:
            session.close()
        self.verified = session.verified
        return self._report(Submitted(path, data, label), session, results, time.monotonic() - started)

    def unjudgeable(self, path: Path, data: bytes, reason: str, label: str | None = None) -> dict[str, Any]:
        """The report for a submission no worker can load (unreadable, not Python): a compile error on every
        case, exactly as for a file with a syntax error, and no worker is started."""
        plan = self.plan
        session = Session(data, plan.cases, plan.methods, plan.device, plan.memory_bytes, self.launch)
        session.failed_start = (Verdict.COMPILE_ERROR, {"exc": "NotJudgeable", "msg": reason})
        return self._report(Submitted(path, data, label), session, self._cases(session), 0.0)

    def _cases(self, session: Session, on_case: OnCase | None = None) -> list[CaseResult]:
        plan = self.plan
        return judge_cases(session, plan.limits, plan.expected, plan.checks, on_case)

    def _report(self, submitted: Submitted, session: Session, results: list[CaseResult],
                wall_s: float) -> dict[str, Any]:
        plan = self.plan
        environment = {"torch": torch_version(), "device": plan.device,
                       "expected_device": sorted(set(plan.expected_devices)), "security_level": self.level}
        if session.failed_start:
            environment["startup_error"] = session.failed_start[1]
        return build_report(
            mode=plan.mode, problem=plan.problem,
            submission={"path": submitted.source, "sha256": hashlib.sha256(submitted.data).hexdigest()},
            results=results, expected=plan.expected, environment=environment, wall_s=wall_s, exact=self.exact,
        )


def judge_guarded(problem: Problem, mode: str, device: str, submitted: Submitted,
                  judge: Callable[[], Judge] | None = None, *, on_start: Callable[[Plan], None] | None = None,
                  on_case: OnCase | None = None) -> dict[str, Any]:
    """Judge ``submitted`` in ``mode`` (``run``/``submit``) and always return a report: the one shell every front
    end (``judge run``/``submit``, notebooks, the site, grading, exporters) judges through.

    ``judge`` gives the :class:`Judge` to use (a warm one the front end keeps; default: a plan made now, with a
    fresh worker per submission); ``on_start`` hears the plan before the first case, ``on_case`` each verdict.
    An unjudgeable submission is a compile error on every case. :class:`judge.errors.BadInput` (the problem
    cannot be judged as asked: no expected values, no GPU) is raised, for the front end to say in one line; any
    other failure of the judge's is a report with the verdict ``internal_error`` (never the learner's), and its
    traceback goes to stderr. The warm process dying under a judgement is such a failure too.
    """
    try:
        current = judge() if judge is not None else Judge(make_plan(problem, mode, device))
        if on_start is not None:
            on_start(current.plan)
        if submitted.unjudgeable is not None:
            return current.unjudgeable(submitted.path, submitted.data, submitted.unjudgeable, submitted.label)
        report = current.judge(submitted.path, submitted.data, on_case, submitted.label)
        if current.workers_lost():
            return failure_report(problem, submitted, mode, device, messages.say("warm_worker_died"))
        return report
    except BadInput:
        raise
    except JudgeError as exc:
        return failure_report(problem, submitted, mode, device, str(exc))
    except Exception as exc:  # noqa: BLE001 -- a report is written even when the judge itself fails
        traceback.print_exc()
        return failure_report(problem, submitted, mode, device, f"{type(exc).__name__}: {exc}")


def failure_report(problem: Problem | None, submitted: Submitted, mode: str, device: str,
                   reason: str) -> dict[str, Any]:
    """The report written when the judge itself failed: the verdict is ``internal_error``, never the learner's."""
    return build_report(
        mode=mode, problem=problem or _Unknown(), submission={"path": submitted.source, "sha256": ""},
        results=[], expected=[], environment={"torch": torch_version(), "device": device, "expected_device": [],
                                               "security_level": probe.level(device)},
        wall_s=0.0, judge_error=reason,
    )


class _Unknown:
    slug = title = "unknown"
