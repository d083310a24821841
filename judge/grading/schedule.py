"""Judge many submissions at once: one job slot per core, each a thread driving its own warm worker.

A slot owns a zygote (:mod:`judge.worker.forkserver`) that imported torch once; every submission, and every
worker replacement inside one (after a crash or a time limit), is a fresh fork of it. The threads only wait on
pipes and ``/proc`` (the workers do the computing, in their own processes), so one judge process keeps every
core busy. Each report goes to ``save`` the moment it is complete.

Ctrl-C stops every slot: the zygotes are killed (their workers die with them), judgements in flight are
dropped rather than saved with a verdict the interruption caused, and :class:`KeyboardInterrupt` propagates.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from judge import messages
from judge.errors import JudgeError
from judge.grading.discover import Loaded
from judge.grading.progress import Progress
from judge.judging.submission import Plan
from judge.pipeline import Judge, failure_report
from judge.worker.forkserver import Zygote

JOIN_S = 0.2
"""how often the main thread wakes while it waits, so Ctrl-C is handled at once"""


def _judge_one(judge: Judge, item: Loaded) -> dict[str, Any]:
    """Like ``judge submit``: an unjudgeable file is a compile error, the judge's own failure an internal error."""
    path, plan = item.submission.path, judge.plan
    if item.problem:
        return judge.unjudgeable(path, item.data, item.problem)
    try:
        return judge.judge(path, item.data)
    except Exception as exc:  # noqa: BLE001 -- a report is written even when the judge itself fails
        reason = str(exc) if isinstance(exc, JudgeError) else f"{type(exc).__name__}: {exc}"
        return failure_report(plan.problem, path, plan.mode, plan.device, reason)


class _Slot(threading.Thread):
    def __init__(self, plan: Plan, queue: list[Loaded], lock: threading.Lock, stop: threading.Event,
                 save: Callable[[Loaded, dict[str, Any]], None], progress: Progress):
        super().__init__(daemon=True)
        self.plan, self.queue, self.lock, self.stop, self.save, self.progress = plan, queue, lock, stop, save, progress
        self.zygote: Zygote | None = None
        self.error: BaseException | None = None

    def _next(self) -> Loaded | None:
        with self.lock:
            return self.queue.pop(0) if self.queue and not self.stop.is_set() else None

    def run(self) -> None:
        judge = None
        try:
            while item := self._next():
                if self.zygote is None or not self.zygote.alive:  # first use, or it died: start a new one
                    self._close()
                    self.zygote = Zygote(self.plan.device)
                    judge = Judge(self.plan, self.zygote.launch, self.zygote.level)
                report = _judge_one(judge, item)
                if not self.zygote.alive:  # its workers died with it: what they did last is not the submission's
                    report = failure_report(self.plan.problem, item.submission.path, self.plan.mode,
                                            self.plan.device, messages.say("warm_worker_died"))
                if self.stop.is_set():
                    return
                self.save(item, report)
                self.progress.judged(report["verdict"])
        except BaseException as exc:  # noqa: BLE001 -- handed to the main thread, which raises it
            self.error = exc
            self.stop.set()
        finally:
            self._close()

    def _close(self) -> None:
        if self.zygote is not None:
            self.zygote.close()
            self.zygote = None

    def abort(self) -> None:
        zygote = self.zygote
        if zygote is not None:
            zygote.started.process.kill()


def run_slots(plan: Plan, todo: list[Loaded], jobs: int, save: Callable[[Loaded, dict[str, Any]], None],
              progress: Progress) -> None:
    """Judge every submission in ``todo`` on ``jobs`` slots, calling ``save`` with each report."""
    queue, lock, stop = list(todo), threading.Lock(), threading.Event()
    slots = [_Slot(plan, queue, lock, stop, save, progress) for _ in range(max(1, min(jobs, len(todo))))]
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
