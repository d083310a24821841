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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from judge.errors import BadInput, InternalError, JudgeError
from judge.judging.intake import read_file
from judge.judging.plan import Asked, Plan
from judge.judging.pool import WorkerPool
from judge.judging.session import UNJUDGEABLE, CaseResult, JudgesNote, Session, judge_cases
from judge.judging.submission import check_python
from judge.judging.verdict import Verdict
from judge.machine import torch_version
from judge.package.problem import Problem
from judge.report.build import build_report
from judge.worker import probe
from judge.worker.launch import Launch

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
    def read(cls, path: Path, label: str | None = None, beneath: Path | None = None, lang: str = "en") -> Submitted:
        """The file at ``path`` as untrusted input (no link followed; ``beneath``: the class folder it lies in).
        One that cannot be read or is not Python is recorded as unjudgeable, why said in ``lang``, not raised
        (grading and the site judge it a compile error; the command line calls :func:`read_submission` itself to
        refuse it as bad input). A file refused unread (a link, a FIFO, too big...) has no bytes here, so no report
        quotes it."""
        try:
            data = read_file(path, beneath=beneath)
        except BadInput as exc:
            return cls(path, b"", label, exc.said_in(lang))
        try:
            return cls(path, check_python(path, data), label)
        except BadInput as exc:
            return cls(path, data, label, exc.said_in(lang))


@dataclass
class Judge:
    """Judges submissions to one plan, one after another, with workers from one pool."""

    asked: Plan | Asked
    """what is judged: a plan, or what makes one the first time it is needed (inside :func:`judge_guarded`, so that a
    failure to make it is reported as the judge's own)"""
    pool: WorkerPool | None = None
    """where the workers come from (default: a fresh interpreter each, under the plan's confinement)"""
    exact: bool = False
    """whether reports give hidden cases' figures exactly (the author's ``judge verify``, who holds the cases);
    else coarse (:func:`judge.report.build.coarse`)"""
    lang: str = "en"
    """the language of its reports' sentences and renderings (:data:`judge.messages.LANGUAGES`): the learner's"""
    launching: Callable[[Launch], Launch] | None = None
    """wraps how each worker is started (the site's Stop button keeps every worker it may have to kill)"""

    @property
    def plan(self) -> Plan:
        return self.asked if isinstance(self.asked, Plan) else self.asked.plan

    @property
    def workers(self) -> WorkerPool:
        if self.pool is None:
            self.pool = WorkerPool(self.plan.confinement, warm=False)
        return self.pool

    def judge(self, submitted: Submitted, on_case: OnCase | None = None) -> dict[str, Any]:
        """The report for ``submitted``; ``on_case`` hears each case's verdict as soon as it is known. Raises what
        the judge itself fails with, the warm process dying meanwhile among it."""
        plan, workers, started = self.plan, self.workers, time.monotonic()
        for failed in workers.begin(plan.problem.preload):  # the package's fault: no submission is judged without it
            raise BadInput("problem_invalid", path=plan.problem.root / "problem.toml",
                           problem=f"[worker] preload: {failed}")
        launch = self.launching(workers.launch) if self.launching else workers.launch
        session = Session(submitted.data, plan.cases, plan.methods, plan.device, plan.memory_bytes, launch,
                          workers.checked(plan))
        try:
            results = self._cases(session, on_case)
        finally:
            session.close()
            if session.verified:  # kept even when ``on_case`` stopped the judgement: a case ran, so it was shown
                workers.remember_checked(plan)
        if workers.lost():
            raise InternalError("warm_worker_died")
        return self._report(submitted, session, results, time.monotonic() - started)

    def unjudgeable(self, submitted: Submitted) -> dict[str, Any]:
        """The report for a submission no worker can load (unreadable, not Python): a compile error on every
        case, exactly as for a file with a syntax error, and no worker is started."""
        plan = self.plan
        session = Session(submitted.data, plan.cases, plan.methods, plan.device, plan.memory_bytes, self.workers.launch)
        session.failed_start = (Verdict.COMPILE_ERROR, JudgesNote(UNJUDGEABLE, "unjudgeable",
                                                                  {"reason": submitted.unjudgeable}))
        return self._report(submitted, session, self._cases(session), 0.0)

    def _cases(self, session: Session, on_case: OnCase | None = None) -> list[CaseResult]:
        plan = self.plan
        return judge_cases(session, plan.limits, plan.expected, plan.checks, on_case)

    def _report(self, submitted: Submitted, session: Session, results: list[CaseResult],
                wall_s: float) -> dict[str, Any]:
        plan = self.plan
        environment = {"torch": torch_version(), "device": plan.device,
                       "expected_device": sorted(set(plan.expected_devices)), "security_level": self.workers.level(self.lang)}
        if session.failed_start:
            environment["startup_error"] = session.failed_start[1]
        return build_report(
            mode=plan.mode, problem=plan.problem,
            submission={"path": submitted.source, "sha256": hashlib.sha256(submitted.data).hexdigest()},
            results=results, expected=plan.expected, environment=environment, wall_s=wall_s, exact=self.exact,
            lang=self.lang,
        )


def judge_guarded(submitted: Submitted, judge: Judge, *, on_start: Callable[[Plan], None] | None = None,
                  on_case: OnCase | None = None) -> dict[str, Any]:
    """Judge ``submitted`` with ``judge`` and always return a report: the one shell every front end (``judge
    run``/``submit``, notebooks, the site, grading, exporters, ``judge verify`` and the mutation tools) judges
    through. ``on_start`` hears the plan before the first case, ``on_case`` each verdict.

    An unjudgeable submission is a compile error on every case. :class:`judge.errors.BadInput` (the problem
    cannot be judged as asked: no expected values, no GPU) is raised, for the front end to say in one line; any
    other failure of the judge's is a report with the verdict ``internal_error`` (never the learner's), and its
    traceback goes to stderr. The warm process dying under a judgement is such a failure too. What is not an
    ``Exception`` (Ctrl-C, the site's Stop) passes through.
    """
    asked = judge.asked
    try:
        if on_start is not None:
            on_start(judge.plan)
        if submitted.unjudgeable is not None:
            return judge.unjudgeable(submitted)
        return judge.judge(submitted, on_case)
    except BadInput:
        raise
    except JudgeError as exc:
        return failure_report(asked.problem, submitted, asked.mode, asked.device, str(exc), judge.lang)
    except Exception as exc:  # noqa: BLE001 -- a report is written even when the judge itself fails
        traceback.print_exc()
        return failure_report(asked.problem, submitted, asked.mode, asked.device, f"{type(exc).__name__}: {exc}",
                              judge.lang)


def failure_report(problem: Problem | None, submitted: Submitted, mode: str, device: str,
                   reason: str, lang: str = "en") -> dict[str, Any]:
    """The report written when the judge itself failed: the verdict is ``internal_error``, never the learner's."""
    return build_report(
        mode=mode, problem=problem or _Unknown(), submission={"path": submitted.source, "sha256": ""},
        results=[], expected=[], environment={"torch": torch_version(), "device": device, "expected_device": [],
                                               "security_level": probe.level(device, lang)},
        wall_s=0.0, judge_error=reason, lang=lang,
    )


class _Unknown:
    slug = title = "unknown"
