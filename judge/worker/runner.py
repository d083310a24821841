"""The parent's side of a worker: start it, send requests, and watch time, memory and output while it works.

One loop (``select`` on the response and output pipes, polling ``/proc`` every few milliseconds) does all the
waiting, so a worker that floods its stdout never blocks and one that sleeps or spins is killed on time.
Nothing here decides a verdict: :class:`Outcome` says what happened, in the words of :class:`Ending`, and
:mod:`judge.judging.verdict` judges it.
"""

from __future__ import annotations

import os
import select
import signal
import time
from dataclasses import dataclass
from typing import Any

from judge.compat import StrEnum
from judge.worker import procfs
from judge.worker.confinement import CGROUP_EXTRA_TASKS, DISK_QUOTA, PROCESS_LIMIT
from judge.worker.launch import Launch, Started
from judge.worker.protocol import RESPONSE_CAP, decode, encode_request

POLL_S = 0.005
DISK_POLL_S = 0.05
"""how often the bytes a worker wrote are measured (a walk of its scratch directory where it is no tmpfs)"""
TASK_LIMIT = PROCESS_LIMIT + CGROUP_EXTRA_TASKS
"""threads of the whole tree (bubblewrap's processes included) above which the parent ends the worker: where
neither ``RLIMIT_NPROC`` (uid 0) nor a pids cgroup refuses them first"""
OUTPUT_CAP = 64 << 10

class Ending(StrEnum):
    """How a request ended when it did not end with an answer within its limits, as CMS names its exit statuses.

    The parent's loop sets all but :attr:`LATE`; the values are what reports print as the judge's note (``exc``).
    """

    CPU = "cpu"
    """its CPU budget ran out"""
    WALL = "wall"
    """its wall-clock budget ran out (it slept, or waited)"""
    MEMORY = "memory"
    """its resident memory went over the limit, or the kernel killed it at its cgroup's limit"""
    THREADS = "threads"
    """its process tree held more threads than the judge allows"""
    DISK = "disk"
    """it wrote more than its disk quota where it may write"""
    TOO_LARGE = "too_large"
    """its reply was larger than the judge reads"""
    EXIT = "exit"
    """the process ended before it answered"""
    LATE = "late"
    """it answered, but after more CPU than its limit (within the grace the budget allows): judged by
    :mod:`judge.judging.session`, which re-runs such a call once"""


@dataclass(frozen=True)
class Budget:
    """Limits for one request; the parent kills the worker at the first one crossed."""

    cpu_s: float
    wall_s: float
    memory_bytes: int


@dataclass
class Outcome:
    """What happened to one request. ``ended`` is None when a complete line came back."""

    ended: Ending | None = None
    """why it stopped, or None"""
    line: bytes = b""
    """the response line, unparsed: the worker is untrusted"""
    cpu_s: float = 0.0
    wall_s: float = 0.0
    waited_s: float = 0.0
    """of ``wall_s``, the seconds the worker's main thread was runnable but got no CPU: a loaded machine's, not
    the worker's, so the wall-clock limit does not count them (a sleeping worker accrues none)"""
    peak_rss_bytes: int = 0
    output: bytes = b""
    """what the worker printed meanwhile (capped)"""
    exit_status: int | None = None
    tasks: int = 0
    """the most threads seen at once"""
    disk_bytes: int = 0
    """the most bytes seen written where the worker may write"""
    oom_killed: bool = False
    """the kernel killed it at its cgroup's memory limit"""

    @property
    def own_s(self) -> float:
        """What the request cost the submission: its CPU time, or its wall time less the time it waited for a CPU
        when that is longer (it slept), the measure the CPU and wall-clock limits take between them."""
        return max(self.cpu_s, self.wall_s - self.waited_s)

    def message(self) -> Any:
        """The response as JSON, or None when it is not valid JSON (a protocol violation)."""
        return decode(self.line)


@dataclass
class Worker:
    solution: bytes
    """the submission's bytes, as the judge read and hashed them"""
    memory_bytes: int
    launch: Launch
    """how it is started: :func:`judge.worker.launch.fresh` or a warm process's ``launch``"""
    started: Started | None = None
    _request_w: int = -1
    _response_r: int = -1
    _output_r: int = -1
    _buffer: bytes = b""
    _output_open: bool = True
    output_total: int = 0
    _oom_kills: int = 0
    """the kernel's OOM kills in the worker's cgroup before the current request"""
    _disk_pid: int | None = None
    """the worker itself (under L2, below bubblewrap's processes), found at its first request: its mount
    namespace shows where it writes, and its main thread's run-queue wait is what a loaded machine costs it"""
    _disk_next: float = 0.0

    def start(self) -> None:
        request_r, self._request_w = os.pipe()
        self._response_r, response_w = os.pipe()
        self._output_r, output_w = os.pipe()
        try:
            self.started = self.launch(self.solution, (request_r, response_w), output_w, self.memory_bytes)
        finally:
            for fd in (request_r, response_w, output_w):
                os.close(fd)
        for fd in (self._response_r, self._output_r):
            os.set_blocking(fd, False)

    @property
    def pid(self) -> int:
        return self.started.process.pid

    def send(self, message: dict[str, Any]) -> None:
        """One request: its JSON line, then its ``hidden`` values (if any) as raw bytes (:func:`judge.worker.protocol.encode_request`)."""
        data = encode_request(message)
        try:
            while data:
                data = data[os.write(self._request_w, data):]
        except OSError:  # the worker has gone; the next read reports how
            pass

    def request(self, message: dict[str, Any], budget: Budget) -> Outcome:
        """Send one request and wait for one response line within ``budget``."""
        procfs.reset_peak(self.pid)
        group = self.started.group
        self._oom_kills = group.oom_kills() if group else 0
        if self._disk_pid is None and self.alive():
            self._disk_pid = procfs.deepest(self.pid)  # under L2 the worker, below bubblewrap's processes
        before = self._usage()
        self.send(message)
        return self.receive(budget, cpu_start=before.cpu_s, usage=before)

    def _waited(self) -> float:
        return procfs.waited_s(self._disk_pid) if self._disk_pid is not None else 0.0

    def receive(self, budget: Budget, cpu_start: float = 0.0, usage: procfs.Usage | None = None) -> Outcome:
        """Wait for one response line; ``usage`` is a sample just taken (the first one costs a /proc walk)."""
        start, waited = time.monotonic(), self._waited()
        outcome = Outcome()
        usage = usage or self._usage()
        while True:
            outcome.wall_s = time.monotonic() - start
            outcome.waited_s = min(max(self._waited() - waited, 0.0), outcome.wall_s)
            outcome.cpu_s = max(usage.cpu_s - cpu_start, 0.0)
            outcome.peak_rss_bytes = max(outcome.peak_rss_bytes, usage.peak_rss_bytes, usage.rss_bytes)
            outcome.tasks = max(outcome.tasks, usage.tasks)
            self._measure_disk(outcome, start + outcome.wall_s)
            if b"\n" in self._buffer:
                outcome.line, self._buffer = self._buffer.split(b"\n", 1)
                self._measure_disk(outcome)
                if outcome.disk_bytes > DISK_QUOTA:  # it failed on a full tmpfs, or is still writing
                    outcome.ended = Ending.DISK
                    self.kill()
                break
            ended = self._limit_crossed(outcome, budget)
            if ended:
                outcome.ended = ended
                self.kill()
                break
            watched = [self._response_r, self._output_r] if self._output_open else [self._response_r]
            ready, _, _ = select.select(watched, [], [], POLL_S)
            if self._output_r in ready:
                self._drain_output(outcome)
            if self._response_r in ready and not self._read_response():
                outcome.ended = Ending.EXIT
                outcome.exit_status = self._reap()
                self._killed_at_memory_limit(outcome)
                break
            usage = self._usage() if self.alive() else usage
        self._drain_output(outcome)
        return outcome

    def _usage(self) -> procfs.Usage:
        """One sample of the tree; with a cgroup, its CPU counter too (it counts what already ended)."""
        usage = procfs.usage(self.pid)
        group = self.started.group
        if group is None:
            return usage
        return procfs.Usage(max(usage.cpu_s, group.cpu_s()), usage.rss_bytes, usage.peak_rss_bytes, usage.tasks)

    def _measure_disk(self, outcome: Outcome, now: float | None = None) -> None:
        """Every ``DISK_POLL_S`` (``now`` None: at once), the bytes written where the worker may write."""
        if self._disk_pid is None or not self.started.watched or (now is not None and now < self._disk_next):
            return
        self._disk_next = time.monotonic() + DISK_POLL_S
        written = procfs.written_bytes(self._disk_pid, self.started.watched, self.started.private_fs)
        outcome.disk_bytes = max(outcome.disk_bytes, written)

    def _killed_at_memory_limit(self, outcome: Outcome) -> None:
        """An end by the kernel's OOM killer in the worker's cgroup is a memory verdict, whatever it held."""
        group = self.started.group
        if group is not None and group.oom_kills() > self._oom_kills:
            outcome.ended, outcome.oom_killed = Ending.MEMORY, True
            outcome.peak_rss_bytes = max(outcome.peak_rss_bytes, group.peak_bytes())

    def _limit_crossed(self, outcome: Outcome, budget: Budget) -> Ending | None:
        if len(self._buffer) > RESPONSE_CAP:
            return Ending.TOO_LARGE
        if outcome.tasks > TASK_LIMIT:
            return Ending.THREADS
        if outcome.disk_bytes > DISK_QUOTA:
            return Ending.DISK
        if outcome.cpu_s > budget.cpu_s:
            return Ending.CPU
        if outcome.wall_s - outcome.waited_s > budget.wall_s:
            return Ending.WALL
        if outcome.peak_rss_bytes > budget.memory_bytes:
            return Ending.MEMORY
        return None

    def _read_response(self) -> bool:
        try:
            chunk = os.read(self._response_r, 1 << 16)
        except BlockingIOError:
            return True
        self._buffer += chunk
        return bool(chunk)

    def _drain_output(self, outcome: Outcome) -> None:
        while True:
            try:
                chunk = os.read(self._output_r, 1 << 16)
            except (BlockingIOError, OSError):
                return
            if not chunk:  # the worker closed its stdout: stop watching it, or select would spin
                self._output_open = False
                return
            room = max(OUTPUT_CAP - self.output_total, 0)
            outcome.output += chunk[:room]
            self.output_total += len(chunk)

    def alive(self) -> bool:
        return self.started is not None and self.started.process.poll() is None

    def leftover(self) -> bool:
        """Bytes after the last response mean the worker wrote more than it was asked: don't reuse it."""
        self._read_response()
        return bool(self._buffer)

    def _reap(self) -> int | None:
        try:
            return self.started.process.wait(timeout=1.0)
        except Exception:  # noqa: BLE001
            self.kill()
            return self.started.process.returncode

    def kill(self) -> None:
        """Kill the whole tree (:func:`kill_tree`) and wait for it."""
        if self.started is None:
            return
        kill_tree(self.pid, procfs.tree(self.pid) if self.alive() else [])
        try:
            self.started.process.wait(timeout=5)
        except Exception:  # noqa: BLE001
            pass

    def close(self) -> None:
        self.kill()
        for fd in (self._request_w, self._response_r, self._output_r):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.started:
            self.started.cleanup()


def kill_tree(pid: int, tree: list[int]) -> None:
    """SIGKILL the session ``pid`` leads, then every process of ``tree`` (descendants that left it: setsid
    escapes). ``pid`` must still be held, unreaped, by whoever waits for it, so that it names no other process."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    for each in tree:
        try:
            os.kill(each, signal.SIGKILL)
        except OSError:
            pass
