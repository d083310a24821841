"""Judge mutants by the judge's own rules, stopping at the first failing case.

This is the one place where mutation testing drives the judge. Each job slot first hands a mutant to its fast
path (:mod:`.trusted_judge`: the author's own code, many mutants per warm process, each call decided by the
session's own rules); what that path cannot decide as the confined judge would, it hands back. Then the mutant's
source goes into a file, and :func:`judge.pipeline.judge_guarded` judges it with workers of a
:class:`judge.judging.pool.WorkerPool` (one per job slot, started once for the whole run, replaced if it dies), as
``judge grade`` does. The plan is
:func:`judge.judging.plan.make_plan`'s for the problem's own cases, or :func:`plan_for` for generated
ones. A mutant is killed by the first case that does not end ``accepted``; judging stops there (the
``on_case`` hook raises), so a killed mutant costs the cases up to its first failure. A kill by a time or memory
limit counts only when a second judgement gives it too.
"""

from __future__ import annotations

import queue
import tempfile
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from judge.author.mutation.trusted_judge import UNDECIDED, TrustedRunner
from judge.errors import InternalError
from judge.judging.session import CaseLimits, CaseResult
from judge.judging.plan import Plan
from judge.judging.pool import WorkerPool
from judge.judging.verdict import Verdict
from judge.machine import usable_cores
from judge.package.cases import Case
from judge.pipeline import Judge, Submitted, judge_guarded

JOIN_S = 0.2
"""how often the main thread wakes while the slots judge, so Ctrl-C is handled at once"""
RESOURCES = (Verdict.TIME_LIMIT_EXCEEDED.value, Verdict.MEMORY_LIMIT_EXCEEDED.value)
RETRIES = 1


@dataclass(frozen=True)
class Kill:
    """The first case a mutant did not pass."""

    case: str
    """the case id, e.g. ``hidden/03-batch-of-one`` (the case file's path under ``cases/``, less ``.json``)"""
    verdict: str
    method: str = ""
    field: str = ""
    """where the first wrong value is (wrong answers only)"""

    def as_json(self) -> dict[str, Any]:
        return {"case": self.case, "verdict": self.verdict, "method": self.method, "field": self.field}


def kill_of(result: CaseResult) -> Kill:
    failed = next(c for c in result.calls if c.verdict is not Verdict.ACCEPTED)
    differences = failed.comparison.differences if failed.comparison else []
    return Kill(result.case.id, result.verdict.value, failed.method, differences[0].field if differences else "")


class _Stop(BaseException):
    """Ends a judgement at its first failing case: not an ``Exception``, so it passes through
    :func:`judge.pipeline.judge_guarded` (which turns every ``Exception`` into a report of the judge's failure)."""

    def __init__(self, kill: Kill):
        super().__init__(kill.case)
        self.kill = kill


Item = tuple[Plan, str, str]
"""what to judge: the plan, a name for the file, the source"""


def plan_for(base: Plan, cases: list[Case], limits: list[CaseLimits]) -> Plan:
    """``base`` (the problem's own plan: its confinement and checks) for cases that are not the problem's own files
    (generated inputs), with their CPU expectations."""
    return replace(base, cases=cases, expected=[c.outputs("cpu") for c in cases],
                   expected_devices=["cpu"] * len(cases), limits=limits, builds_checked=False)


def subset(plan: Plan, indices: tuple[int, ...]) -> Plan:
    """``plan`` with only the cases at ``indices``, in their order."""
    return replace(plan, cases=[plan.cases[i] for i in indices], expected=[plan.expected[i] for i in indices],
                   expected_devices=[plan.expected_devices[i] for i in indices],
                   limits=[plan.limits[i] for i in indices])


class _Batch:
    """One call of :meth:`Pool.first_failures`: its results as the slots hand them in."""

    def __init__(self, count: int, done: Callable[[int, Kill | None], None] | None):
        self.results: list[Kill | None] = [None] * count
        self.left, self.on_done = count, done
        self.lock, self.finished, self.error = threading.Lock(), threading.Event(), None
        if not count:
            self.finished.set()

    def put(self, index: int, kill: Kill | None) -> None:
        with self.lock:
            self.results[index] = kill
            self.left -= 1
            if self.on_done is not None:
                self.on_done(index, kill)
            if not self.left:
                self.finished.set()

    def fail(self, error: BaseException) -> None:
        self.error = self.error or error
        self.finished.set()


class _Slot(threading.Thread):
    """One warm pool, started and used by this thread alone: its zygote dies with the thread that started it
    (``PR_SET_PDEATHSIG``), so the thread lives as long as the :class:`Pool`."""

    def __init__(self, device: str, folder: Path, tasks: "queue.Queue[Any]", fast: bool):
        super().__init__(daemon=True)
        self.device, self.folder, self.tasks = device, folder, tasks
        self.workers: WorkerPool | None = None
        self.trusted = TrustedRunner() if fast else None

    def run(self) -> None:
        try:
            while (task := self.tasks.get()) is not None:
                batch, index, (plan, name, source) = task
                if batch.error is not None:
                    continue
                try:
                    batch.put(index, self.first_failure(plan, name, source))
                except BaseException as exc:  # noqa: BLE001 -- handed to the thread that waits for the batch
                    batch.fail(exc)
        finally:
            self._close()

    def _judge(self, plan: Plan) -> Judge:
        if self.workers is None:
            self.workers = WorkerPool(plan.confinement)
        return Judge(plan, self.workers)

    def first_failure(self, plan: Plan, name: str, source: str) -> Kill | None:
        """The first case ``source`` fails, or None when it passes every case. Judged again when the zygote died
        meanwhile (what its workers did last is not the mutant's doing), and when a time or memory limit
        stopped it: on a loaded machine the wall-clock limit can stop a sound solution, so such a kill counts
        only when it recurs. The fast path decides first, where it can."""
        if self.trusted is not None:
            fast = self.trusted.first_failure(plan, source)
            if fast is not UNDECIDED:
                return None if fast is None else kill_of(fast)
        kill = None
        for attempt in range(RETRIES + 1):
            try:
                kill = self._once(self._judge(plan), name, source)
            except InternalError:
                if attempt == RETRIES or not self.workers.lost():
                    raise
                continue
            if not self.workers.lost() and (kill is None or kill.verdict not in RESOURCES):
                break
        return kill

    def _once(self, judge: Judge, name: str, source: str) -> Kill | None:
        """The first failing case, or None; the judge's own failure is raised (a report of it names no case)."""
        path = self.folder / f"{name}.py"
        path.write_text(source, encoding="utf-8")

        def stop(_index: int, result: CaseResult) -> None:
            if result.verdict is not Verdict.ACCEPTED:
                raise _Stop(kill_of(result))

        try:
            report = judge_guarded(Submitted(path, source.encode()), judge, on_case=stop)
        except _Stop as stopped:
            return stopped.kill
        finally:
            path.unlink(missing_ok=True)
        if report["judge"]["judge_error"]:
            raise InternalError("internal", reason=report["judge"]["judge_error"])
        return None

    def _close(self) -> None:
        if self.workers is not None:
            self.workers.close()
        if self.trusted is not None:
            self.trusted.close()

    def abort(self) -> None:
        if self.workers is not None:
            self.workers.abort()
        if self.trusted is not None:
            self.trusted.kill()


class Pool:
    """``jobs`` slots judging mutants in parallel; close it (or use it as a context manager) when done. ``fast``:
    whether each slot tries :mod:`.trusted_judge` first (False: every mutant goes to confined workers)."""

    def __init__(self, jobs: int | None = None, device: str = "cpu", fast: bool = True):
        self.folder = tempfile.TemporaryDirectory(prefix="judge-mutants-")
        self.tasks: queue.Queue[Any] = queue.Queue()
        count = jobs or usable_cores()
        self.slots = [_Slot(device, Path(self.folder.name), self.tasks, fast) for _ in range(max(1, count))]
        for slot in self.slots:
            slot.start()

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def first_failures(self, items: list[Item], done: Callable[[int, Kill | None], None] | None = None
                       ) -> list[Kill | None]:
        """For every ``(plan, name, source)``, the first case of its plan that ``source`` fails (None: it passes
        them all); ``done`` hears each result as it comes."""
        batch = _Batch(len(items), done)
        for index, item in enumerate(items):
            self.tasks.put((batch, index, item))
        try:
            while not batch.finished.wait(JOIN_S):
                pass
        except KeyboardInterrupt:
            batch.fail(KeyboardInterrupt())
            for slot in self.slots:
                slot.abort()
            raise
        if batch.error is not None:
            raise batch.error
        return batch.results

    def close(self) -> None:
        for _ in self.slots:
            self.tasks.put(None)
        for slot in self.slots:
            slot.join()
        self.folder.cleanup()
