"""The Stop button's server side: a job's switch that kills the workers judging it and lets no new one start.

The judging thread starts every worker of a job through :meth:`Stop.launch` (a :data:`judge.worker.launch.Launch`
wrapped around the zygote's), which keeps each worker until its ``cleanup``. :meth:`Stop.stop`, called from the
event loop's thread, SIGKILLs those workers; the judging thread's wait on the worker then ends (the worker is
gone), and the next step of the judgement raises :class:`Stopped` (the next worker's launch, or the next case).
A worker stays registered until the judging thread's ``cleanup`` releases its pid to the zygote (it is a zombie
until then, :class:`judge.worker.forkserver.ForkedProcess`), so the pid killed is always that worker's.

Not stoppable: the problem's one-time calibration (timing the reference, before the first case), which is not
the learner's code; a stop asked for meanwhile takes effect when the first case would start.
"""

from __future__ import annotations

import threading

from judge.worker import procfs
from judge.worker.launch import Launch, Started
from judge.worker.runner import kill_tree


class Stopped(BaseException):
    """Raised in the judging thread once a job is stopped. A ``BaseException``, like ``asyncio.CancelledError``:
    it must pass through :func:`judge.pipeline.judge_guarded`, which turns every ``Exception`` into an
    ``internal_error`` report; a stopped job has no report."""


class Stop:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: dict[int, Started] = {}
        self.stopped = False

    def stop(self) -> None:
        """Kill every worker of the job now (from any thread); none starts after this."""
        with self._lock:
            self.stopped = True
            for started in self._live.values():
                kill_tree(started.process.pid, procfs.tree(started.process.pid))

    def check(self) -> None:
        """In the judging thread, between steps: raise :class:`Stopped` once stopped."""
        if self.stopped:
            raise Stopped()

    def launching(self, launch: Launch) -> Launch:
        """``launch``, with every worker it starts killable by :meth:`stop` until its cleanup."""
        def started(solution: bytes, fds: tuple[int, int], output_fd: int, memory_bytes: int) -> Started:
            self.check()
            worker = launch(solution, fds, output_fd, memory_bytes)
            with self._lock:
                self._live[id(worker)] = worker
                if self.stopped:  # stopped while it was being forked
                    kill_tree(worker.process.pid, procfs.tree(worker.process.pid))
            release = worker.cleanup

            def cleanup() -> None:
                with self._lock:
                    self._live.pop(id(worker), None)
                release()

            worker.cleanup = cleanup  # type: ignore[method-assign]
            return worker

        return started
