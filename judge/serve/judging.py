"""Judge Run and Submit for the site: the warm worker path of ``judge grade``, one learner, live progress.

One thread owns one :class:`judge.worker.forkserver.ForkServer` (it is used by one thread at a time) and judges
the queued jobs in order; each submission is a fresh confined fork of it, judged through
:func:`judge.pipeline.judge_guarded` with the same plan (cases, expected values, limits) as ``judge run`` and
``judge submit``. A job publishes its events to the server's event loop as they happen: ``start`` (the
cases), one ``case`` per verdict, then ``done`` (the report, its HTML, the history key) or ``error``.
"""

from __future__ import annotations

import asyncio
import itertools
import tempfile
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, AsyncIterator

from judge import messages
from judge.errors import BadInput
from judge.judging.session import CaseResult
from judge.judging.submission import Plan, make_plan
from judge.package.problem import Problem
from judge.pipeline import Judge, Submitted, judge_guarded
from judge.practice.history import record_report
from judge.report.render import html_fragment
from judge.serve import store
from judge.worker.forkserver import ForkServer
from judge.worker.probe import confinement

SOURCE_LABEL = "browser"
"""the submission path in reports and the history's ``source`` for attempts judged in the browser"""
KEPT_JOBS = 32
"""finished jobs whose events can still be read (a page that reconnects, a second tab)"""


class AlreadyJudging(Exception):
    def __init__(self, job: Job):
        super().__init__(job.id)
        self.job = job


class Job:
    """One Run or Submit. Its events are appended on the event loop's thread, so readers need no lock."""

    def __init__(self, number: int, slug: str, mode: str, loop: asyncio.AbstractEventLoop):
        self.id, self.slug, self.mode = str(number), slug, mode
        self.events: list[dict[str, Any]] = []
        self.finished = False
        self._loop = loop
        self._wake = asyncio.Event()

    def publish(self, event: dict[str, Any]) -> None:
        """Called from the judging thread."""
        self._loop.call_soon_threadsafe(self._append, event)

    def _append(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.finished = event["type"] in ("done", "error")
        self._wake.set()

    async def follow(self) -> AsyncIterator[dict[str, Any]]:
        """Every event, from the first, until the last one."""
        seen = 0
        while True:
            while seen < len(self.events):
                seen += 1
                yield self.events[seen - 1]
            if self.finished:
                return
            self._wake.clear()
            await self._wake.wait()


class Judging:
    def __init__(self, device: str = "cpu"):
        self.device = device
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="judge-serve")
        self._zygote: ForkServer | None = None
        self._judges: dict[tuple[str, str], Judge] = {}
        self._lock = threading.Lock()
        self._running: dict[str, Job] = {}
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._numbers = itertools.count(1)

    # -- on the event loop -------------------------------------------------------------------------------------
    def warm(self) -> None:
        """Start the zygote now, so the first Run does not wait for ``import torch``."""
        self._executor.submit(self._warm_zygote)

    def start(self, problem: Problem, mode: str, code: str) -> Job:
        """Queue a judgement; raises :class:`AlreadyJudging` while one of the same problem is not finished."""
        with self._lock:
            running = self._running.get(problem.slug)
            if running is not None:
                raise AlreadyJudging(running)
            job = Job(next(self._numbers), problem.slug, mode, asyncio.get_running_loop())
            self._running[problem.slug] = job
            self._jobs[job.id] = job
            while len(self._jobs) > KEPT_JOBS:
                self._jobs.popitem(last=False)
        self._executor.submit(self._run, job, problem, code)
        return job

    def job(self, job_id: str) -> Job | None:
        return self._jobs.get(job_id)

    def running(self, slug: str) -> Job | None:
        return self._running.get(slug)

    def close(self) -> None:
        self._executor.submit(self._close_zygote)
        self._executor.shutdown(wait=True, cancel_futures=True)

    # -- on the judging thread ---------------------------------------------------------------------------------
    def _warm_zygote(self) -> ForkServer:
        if self._zygote is None or not self._zygote.alive:  # first use, or it died: start a new one
            self._close_zygote()
            self._zygote = ForkServer(confinement(self.device))
        return self._zygote

    def _close_zygote(self) -> None:
        if self._zygote is not None:
            self._zygote.close()
            self._zygote, self._judges = None, {}

    def _judge_for(self, problem: Problem, mode: str) -> Judge:
        zygote = self._warm_zygote()
        key = (problem.slug, mode)
        if key not in self._judges:  # a plan per problem and mode, its cases checked once per zygote
            self._judges[key] = Judge.forked(make_plan(problem, mode, self.device), zygote)
        return self._judges[key]

    def _run(self, job: Job, problem: Problem, code: str) -> None:
        try:
            report = self._judge(job, problem, code)
            job.publish(self._done(report, code))
        except BadInput as exc:  # the problem cannot be judged (no expected values, ...): say what to do
            job.publish({"type": "error", "message": str(exc)})
        except Exception as exc:  # noqa: BLE001 -- the page is told, and the server keeps serving
            job.publish({"type": "error", "message": messages.say("internal", reason=f"{type(exc).__name__}: {exc}")})
        finally:
            with self._lock:
                self._running.pop(job.slug, None)

    def _judge(self, job: Job, problem: Problem, code: str) -> dict[str, Any]:
        """Like ``judge run``/``submit``, with live events: an unjudgeable file is a compile error, the judge's
        failure internal."""
        def on_start(plan: Plan) -> None:
            job.publish({"type": "start", "cases": [{"case": c.id, "hidden": c.hidden} for c in plan.cases]})

        def on_case(index: int, result: CaseResult) -> None:
            job.publish({"type": "case", "index": index, "verdict": result.verdict.value if result.verdict else None})

        with tempfile.TemporaryDirectory(prefix="judge-serve-") as folder:
            path = Path(folder) / f"{problem.slug}.py"
            path.write_text(code, encoding="utf-8")
            return judge_guarded(problem, job.mode, self.device, Submitted.read(path, SOURCE_LABEL),
                                 lambda: self._judge_for(problem, job.mode), on_start=on_start, on_case=on_case)

    def _done(self, report: dict[str, Any], code: str) -> dict[str, Any]:
        """Record the attempt in the history and keep its report and code; the last event of a job."""
        attempt, warning = record_report(report, lambda a: store.keep_attempt(a, report, code), code)
        return {"type": "done", "verdict": report["verdict"], "passed": report["passed"], "total": report["total"],
                "attempt": store.attempt_key(attempt), "warning": warning, "html": html_fragment(report),
                "report": report}
