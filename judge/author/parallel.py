"""Problems checked side by side, one process per usable core, their lines printed in the problems' order.

``judge verify`` spends its time computing, problem by problem, so on two cores two problems at once take about
half as long. Each process is started afresh (``spawn``: the judge's process holds torch, which must not be
forked) and keeps its own warm workers for every problem it is given. The first unfinished problem's lines are
printed as they come; a later problem's wait until every one before it is done, so the output reads as if the
problems had been checked one after another.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue
import signal
from typing import Any, Callable, Protocol

from judge.errors import InternalError
from judge.worker import libc

Log = Callable[[str], None]
POLL_S = 1.0
"""how often the parent looks whether a process died without saying so"""
STOP_S = 10.0
"""how long an interrupted process may take to close its workers before it is killed"""


class Work(Protocol):
    """What is done to each item, in whichever process gets it: picklable, and closed in each process at the end."""

    def __call__(self, item: str, log: Log) -> Any: ...

    def close(self) -> None: ...


def each(items: list[str], work: Work, jobs: int, log: Log) -> list[Any]:
    """``work(item, log)`` for every item, in ``jobs`` processes at most (in this one when that is 1); what each
    returned, in the items' order."""
    jobs = min(jobs, len(items))
    if jobs <= 1:
        try:
            return [work(item, log) for item in items]
        finally:
            work.close()
    return _side_by_side(items, work, jobs, log)


def _serve(work: Work, tasks: Any, results: Any, parent: int) -> None:
    """A process's loop: take an item, do it, say every line and the result. An interrupt ends it quietly, after
    its workers are closed; a second one cannot cut that short. So does its parent's end, however it ended."""
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # inherited ignored from a judge started in the
        libc.die_with_parent(signal.SIGINT)  # background, it would make the parent's death go unheard
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # one that came while starting acts now
        if os.getppid() != parent:  # the parent ended before the death signal was set
            return
        while (task := tasks.get()) is not None:
            index, item = task
            try:
                results.put(("done", index, work(item, lambda line: results.put(("line", index, line)))))
            except Exception as exc:  # noqa: BLE001 -- sent to the parent, which raises it as the serial run would
                results.put(("raised", index, _sendable(exc)))
                return
    except KeyboardInterrupt:
        results.cancel_join_thread()  # the parent has stopped reading: what is still queued may be lost
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        work.close()


def _sendable(exc: Exception) -> bytes:
    """``exc`` pickled; one that cannot be, as the internal error the command line would have made of it."""
    try:
        return pickle.dumps(exc)
    except Exception:  # noqa: BLE001 -- any exception may refuse pickling, in any way
        return pickle.dumps(InternalError("internal", reason=f"{type(exc).__name__}: {exc}"))


def _side_by_side(items: list[str], work: Work, jobs: int, log: Log) -> list[Any]:
    context = multiprocessing.get_context("spawn")
    tasks, results = context.Queue(), context.Queue()
    for task in [*enumerate(items), *[None] * jobs]:
        tasks.put(task)
    processes = [context.Process(target=_serve, args=(work, tasks, results, os.getpid())) for _ in range(jobs)]
    finished = False
    try:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # pending in each until _serve handles it
        try:
            for process in processes:
                process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        outcomes = _collect(items, processes, results, log)
        finished = True
        return outcomes
    finally:
        _stop(processes, interrupt=not finished)


def _collect(items: list[str], processes: list[Any], results: Any, log: Log) -> list[Any]:
    """Every item's result, its lines logged in the items' order."""
    waiting: dict[int, list[str]] = {index: [] for index in range(len(items))}
    done: dict[int, Any] = {}
    head = 0
    while head < len(items):
        try:
            kind, index, payload = results.get(timeout=POLL_S)
        except queue.Empty:
            if not any(process.is_alive() for process in processes):
                raise InternalError("parallel_died", item=items[head]) from None
            continue
        if kind == "raised":
            raise pickle.loads(payload)
        if kind == "line":
            (log if index == head else waiting[index].append)(payload)
            continue
        done[index] = payload
        while head in done:
            head += 1
            for line in waiting.pop(head, []):
                log(line)
    return [done[index] for index in range(len(items))]


def _stop(processes: list[Any], interrupt: bool) -> None:
    """Wait for every process to close its workers and end; after an interrupt or a failure, tell each to stop
    first. One that does not end in time is killed."""
    started = [process for process in processes if process.pid is not None]
    for process in started:
        if interrupt and process.is_alive():
            os.kill(process.pid, signal.SIGINT)
    for process in started:
        process.join(STOP_S)
        if process.is_alive():
            process.kill()
            process.join()
