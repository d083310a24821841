"""Judge many submissions at once: one job slot per core, each a thread driving its own warm worker.

A slot owns a warm pool (:class:`judge.judging.pool.WorkerPool`: a zygote that imported torch once); every
submission, and every worker replacement inside one (after a crash or a time limit), is a fresh fork of it. The
threads only wait on pipes and ``/proc`` (the workers do the computing, in their own processes), so one judge
process keeps every core busy. Each report goes to ``save`` the moment it is complete, with the hidden cases'
figures exact: the store keeps the instructor's copy and derives the student's
(:func:`judge.report.build.coarsened`).

Ctrl-C stops every slot: the zygotes are killed (their workers die with them), judgements in flight are
dropped rather than saved with a verdict the interruption caused, and :class:`KeyboardInterrupt` propagates.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from judge.grading.discover import Loaded
from judge.grading.progress import Progress
from judge.judging.plan import Plan
from judge.judging.pool import WorkerPool
from judge.pipeline import Judge, judge_guarded

JOIN_S = 0.2
"""how often the main thread wakes while it waits, so Ctrl-C is handled at once"""


class _Slot(threading.Thread):
    def __init__(self, plan: Plan, queue: list[Loaded], lock: threading.Lock, stop: threading.Event,
                 save: Callable[[Loaded, dict[str, Any]], None], progress: Progress, lang: str):
        super().__init__(daemon=True)
        self.plan, self.queue, self.lock, self.stop, self.save, self.progress = plan, queue, lock, stop, save, progress
        self.lang = lang
        self.pool = WorkerPool(plan.confinement)
        self.error: BaseException | None = None

    def _next(self) -> Loaded | None:
        with self.lock:
            return self.queue.pop(0) if self.queue and not self.stop.is_set() else None

    def run(self) -> None:
        judge = Judge(self.plan, self.pool, exact=True, lang=self.lang)  # as ``judge submit``: an unjudgeable file
        # is a compile error, its report in the class's language
        try:
            while item := self._next():
                report = judge_guarded(item.submitted, judge)
                if self.stop.is_set():
                    return
                self.save(item, report)
                self.progress.judged(report["verdict"])
        except BaseException as exc:  # noqa: BLE001 -- handed to the main thread, which raises it
            self.error = exc
            self.stop.set()
        finally:
            self.pool.close()

    def abort(self) -> None:
        self.pool.abort()


def run_slots(plan: Plan, todo: list[Loaded], jobs: int, save: Callable[[Loaded, dict[str, Any]], None],
              progress: Progress, lang: str = "en") -> None:
    """Judge every submission in ``todo`` on ``jobs`` slots, calling ``save`` with each report (written in
    ``lang``)."""
    queue, lock, stop = list(todo), threading.Lock(), threading.Event()
    slots = [_Slot(plan, queue, lock, stop, save, progress, lang) for _ in range(max(1, min(jobs, len(todo))))]
    progress.start(len(todo))
    try:
        for slot in slots:
            slot.start()
        for slot in slots:
            while slot.is_alive():
                slot.join(JOIN_S)
    except KeyboardInterrupt:
        stop.set()
        for slot in slots:
            slot.abort()
        for slot in slots:
            slot.join()
        raise
    finally:
        progress.finish()
    errors = [slot.error for slot in slots if slot.error is not None]
    if errors:
        raise errors[0]
