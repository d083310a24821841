"""Where a judge's workers come from, for one confinement: a fresh interpreter each, or forks of one warm process.

A warm :class:`WorkerPool` is the one owner of a fork server (:class:`judge.worker.forkserver.ForkServer`: a
zygote that imported torch once, so a worker costs a fork). It starts the fork server when the first judgement
begins and, at the start of a later judgement, replaces it if it has died (a submission can kill it; its
workers die with it). A judgement during which it died is void, not the submission's doing (:meth:`lost`): a
dead fork server is never replaced in the middle of a judgement, and the next worker's start fails with the
same failure of the judge's (``warm_worker_died``).

The pool also remembers which plans one of its workers has shown to build every case bit-identically (the
checker of :class:`judge.judging.session.Session`), so the next submission to the same plan skips that check;
a fork server started afresh must show it again. One thread judges with a pool at a time (one job slot);
:meth:`abort` may be called from any thread.

A front end owns its pools; what has none of its own (a calibration) borrows the process's :func:`shared` pool.
"""

from __future__ import annotations

import atexit
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from judge.errors import InternalError
from judge.worker.confinement import Confinement
from judge.worker.forkserver import ForkServer
from judge.worker.launch import Started, fresh

if TYPE_CHECKING:  # a plan's module reads calibrations, which borrow a shared pool from here
    from judge.judging.plan import Plan


class WorkerPool:
    """Workers under one confinement: forked from a warm process (``warm``), else a fresh interpreter each."""

    def __init__(self, confinement: Confinement, warm: bool = True):
        self.confinement = confinement
        """the layers every worker gets (a warm process starts inside them, as a fresh worker does)"""
        self.warm = warm
        self._server: ForkServer | None = None
        self._checked: weakref.WeakSet[Plan] = weakref.WeakSet()
        """the plans whose cases a worker of this pool built bit-identically (since its fork server started)"""

    def level(self, lang: str = "en") -> str:
        """The security level of every worker, as reports print it in ``lang``."""
        return self.confinement.describe(lang)

    def begin(self, preload: tuple[str, ...] = ()) -> list[str]:
        """Before a judgement: a warm pool makes sure its fork server is alive, starting one or replacing a dead one
        (raises :class:`judge.errors.InternalError` when it cannot), and has it import ``preload``: a line for each
        module that could not be imported."""
        if not self.warm:
            return []
        if self._server is None or not self._server.alive:
            self.close()
            self._server = ForkServer(self.confinement)
        return self._server.preload(preload)

    def launch(self, solution: bytes, fds: tuple[int, int], output_fd: int, memory_bytes: int) -> Started:
        """Start one worker: a :data:`judge.worker.launch.Launch`."""
        if not self.warm:
            return fresh(self.confinement)(solution, fds, output_fd, memory_bytes)
        if self._server is None:
            self.begin()
        try:
            return self._server.launch(solution, fds, output_fd, memory_bytes)
        except InternalError:
            if self.lost():  # it died under this judgement: said as when that is found after the last case
                raise InternalError("warm_worker_died") from None
            raise

    def lost(self) -> bool:
        """Whether the warm process has died (a report given meanwhile is not the submission's doing)."""
        return self._server is not None and not self._server.alive

    def checked(self, plan: Plan) -> bool:
        """Whether a worker of this pool has shown that it builds every case of ``plan`` bit-identically (or the
        plan's calibration, measured on this machine, showed it)."""
        return plan.builds_checked or plan in self._checked

    def remember_checked(self, plan: Plan) -> None:
        self._checked.add(plan)

    def abort(self) -> None:
        """Kill the warm process now, from any thread (Ctrl-C): its workers die with it."""
        server = self._server
        if server is not None:
            server.started.process.kill()

    def close(self) -> None:
        """End the warm process, if any; the next judgement starts a new one."""
        if self._server is not None:
            self._server.close()
        self._server = None
        self._checked = weakref.WeakSet()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()


_SHARED: dict[Confinement, WorkerPool] = {}
_SHARED_LOCK = threading.Lock()
"""one borrower at a time (a pool serves one judgement at a time)"""


@contextmanager
def shared(confinement: Confinement) -> Iterator[WorkerPool]:
    """This process's own warm pool for ``confinement``, lent for one judgement: alive (started, or replaced when
    it died) on entry, and closed when the process exits."""
    with _SHARED_LOCK:
        if not _SHARED:
            atexit.register(_close_shared)
        pool = _SHARED.get(confinement) or _SHARED.setdefault(confinement, WorkerPool(confinement))
        pool.begin()
        yield pool


def _close_shared() -> None:
    for pool in _SHARED.values():
        pool.close()
