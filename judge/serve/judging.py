"""Judge Run and Submit for the site: the warm worker path of ``judge grade``, one learner, live progress.

One thread owns one warm pool (:class:`judge.judging.pool.WorkerPool`, used by one thread at a time) and judges
the queued jobs in order; each submission is a fresh confined fork of it, judged through
:func:`judge.pipeline.judge_guarded` with the same plan (cases, expected values, limits) as ``judge run`` and
``judge submit``, or for a case the learner pasted, the plan of ``judge run --case`` (not recorded in the
history, as there). A job publishes its events to the server's event loop as they happen: ``start`` (the
cases), one ``case`` per verdict, then ``done`` (the report, its HTML, the history key), ``error``, or
``stopped`` (the learner pressed Stop: :mod:`judge.serve.stopping` killed its workers; no report, no attempt).
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
from judge.judging.plan import CUSTOM, Asked, Plan
from judge.judging.pool import WorkerPool
from judge.package.cases import load_own_case
from judge.package.problem import Problem
from judge.pipeline import Judge, Submitted, judge_guarded
from judge.practice.history import record_report
from judge.report import escape
from judge.report.render import html_fragment
from judge.serve import store
from judge.serve.stopping import Stop, Stopped
from judge.worker.probe import confinement

SOURCE_LABEL = "browser"
"""the submission path in reports and the history's ``source`` for attempts judged in the browser"""
KEPT_JOBS = 32
"""finished jobs whose events can still be read (a page that reconnects, a second tab)"""
CASE_FILE = "input.json"
"""the pasted case, as a file for :func:`judge.judging.plan.custom_plan`: its id is ``custom/input``"""
CASE_LABEL = "site_custom_case"
"""the message that names the pasted case in a one-line error about it, in the page's language ("custom input";
the command line names the case file)"""
LAST_EVENTS = ("done", "error", "stopped")


class AlreadyJudging(Exception):
    def __init__(self, job: Job):
        super().__init__(job.id)
        self.job = job


class Job:
    """One Run or Submit. Its events are appended on the event loop's thread, so readers need no lock."""

    def __init__(self, number: int, slug: str, mode: str, loop: asyncio.AbstractEventLoop, case: str | None = None,
                 lang: str = "en"):
        self.id, self.slug, self.mode, self.lang = str(number), slug, mode, lang
        """``lang``: the language the page shows, in which the report is written (:data:`judge.messages.LANGUAGES`)"""
        self.case = case
        """the learner's own case (JSON text, checked by :func:`check_case`), judged instead of the samples; or None"""
        self.events: list[dict[str, Any]] = []
        self.finished = False
        self.stop = Stop()
        self._loop = loop
        self._wake = asyncio.Event()

    def publish(self, event: dict[str, Any]) -> None:
        """Called from the judging thread."""
        self._loop.call_soon_threadsafe(self._append, event)

    def _append(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.finished = event["type"] in LAST_EVENTS
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
        self._pool: WorkerPool | None = None
        """made on the judging thread, where probing the confinement may fail like any judgement"""
        self._asked: dict[tuple[str, str], Asked] = {}
        """per problem and mode, what is judged (its plan made once, on its first judgement)"""
        self._lock = threading.Lock()
        self._running: dict[str, Job] = {}
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._numbers = itertools.count(1)

    # -- on the event loop -------------------------------------------------------------------------------------
    def warm(self) -> None:
        """Start the zygote now, so the first Run does not wait for ``import torch``."""
        self._executor.submit(lambda: self._workers().begin())

    def start(self, problem: Problem, mode: str, code: str, case: str | None = None, lang: str = "en") -> Job:
        """Queue a judgement (``case``: on that case alone, in ``run`` mode; ``lang``: its report's language);
        raises :class:`AlreadyJudging` while one of the same problem is not finished."""
        with self._lock:
            running = self._running.get(problem.slug)
            if running is not None:
                raise AlreadyJudging(running)
            job = Job(next(self._numbers), problem.slug, mode, asyncio.get_running_loop(), case, lang)
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

    def stop(self, job: Job) -> None:
        """Stop a queued or running job: its workers are killed now, and it ends with a ``stopped`` event."""
        job.stop.stop()

    def close(self) -> None:
        self._executor.submit(self._close_pool)
        self._executor.shutdown(wait=True, cancel_futures=True)

    # -- on the judging thread ---------------------------------------------------------------------------------
    def _judge_for(self, problem: Problem, job: Job, case: Path | None) -> Judge:
        """The judge of the problem and mode (its plan made once, its cases checked once per warm process), or of the
        learner's case; its workers started through the job's :class:`Stop`."""
        if case is not None:
            asked = Asked(problem, job.mode, self.device, case)
        else:
            asked = self._asked.setdefault((problem.slug, job.mode), Asked(problem, job.mode, self.device))
        return Judge(asked, self._workers(), lang=job.lang, launching=job.stop.launching)

    def _workers(self) -> WorkerPool:
        if self._pool is None:
            self._pool = WorkerPool(confinement(self.device))
        return self._pool

    def _close_pool(self) -> None:
        if self._pool is not None:
            self._pool.close()

    def _run(self, job: Job, problem: Problem, code: str) -> None:
        try:
            job.stop.check()  # stopped while it waited in the queue
            report = self._judge(job, problem, code)
            job.publish(self._done(report, code, recorded=job.case is None))
        except Stopped:
            job.publish({"type": "stopped", "message": messages.say_in(job.lang, "serve_stopped")})
        except BadInput as exc:  # the problem cannot be judged (no expected values, ...): say what to do
            job.publish({"type": "error", "message": str(exc)})
        except Exception as exc:  # noqa: BLE001 -- the page is told, and the server keeps serving
            job.publish({"type": "error", "message": messages.say_in(job.lang, "internal",
                                                                     reason=f"{type(exc).__name__}: {exc}")})
        finally:
            with self._lock:
                self._running.pop(job.slug, None)

    def _judge(self, job: Job, problem: Problem, code: str) -> dict[str, Any]:
        """Like ``judge run``/``submit``, with live events: an unjudgeable file is a compile error, the judge's
        failure internal."""
        def on_start(plan: Plan) -> None:
            job.stop.check()
            job.publish({"type": "start", "cases": [{"case": c.id, "hidden": c.hidden} for c in plan.cases]})

        def on_case(index: int, result: CaseResult) -> None:
            job.stop.check()  # a case whose worker Stop killed has no verdict of its own, and no case follows
            job.publish({"type": "case", "index": index, "verdict": result.verdict.value if result.verdict else None})

        with tempfile.TemporaryDirectory(prefix="judge-serve-") as folder:
            path = Path(folder) / f"{problem.slug}.py"
            path.write_text(code, encoding="utf-8")
            case = None
            if job.case is not None:
                case = Path(folder) / CASE_FILE
                case.write_text(job.case, encoding="utf-8", errors="surrogatepass")
            return judge_guarded(Submitted.read(path, SOURCE_LABEL, lang=job.lang), self._judge_for(problem, job, case),
                                 on_start=on_start, on_case=on_case)

    def _done(self, report: dict[str, Any], code: str, recorded: bool) -> dict[str, Any]:
        """The last event of a job. A judgement of the problem's cases is recorded in the history, its report and
        code kept (``recorded``); one of the learner's own case is not, as ``judge run --case`` records none."""
        attempt, warning = None, None
        if recorded:
            attempt, warning = record_report(report, lambda a: store.keep_attempt(a, report, code), code)
        return {"type": "done", "verdict": report["verdict"], "passed": report["passed"], "total": report["total"],
                "attempt": store.attempt_key(attempt) if attempt else None, "warning": warning,
                "html": html_fragment(report), "report": escape.displayable(report)}


def check_case(problem: Problem, text: str) -> None:
    """Validate a pasted case as ``judge run --case`` validates its file (the package's case format), before it
    is queued: a :class:`BadInput` with the command line's one-line message, naming it :data:`CASE_LABEL`."""
    with tempfile.TemporaryDirectory(prefix="judge-serve-") as folder:
        path = Path(folder) / CASE_FILE
        path.write_text(text, encoding="utf-8", errors="surrogatepass")  # read back: a one-line error
        try:
            load_own_case(path, CUSTOM, {m["name"] for m in problem.methods})
        except BadInput as exc:
            raise BadInput(exc.key, **{**exc.fields, "path": messages.Said(CASE_LABEL)}) from None
