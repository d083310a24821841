"""The parent's side of a warm worker: start a zygote (:mod:`judge.worker.zygote`) and have it fork workers.

:meth:`ForkServer.launch` is a :data:`judge.worker.launch.Launch`, as :func:`judge.worker.launch.fresh` is, so a
:class:`judge.worker.runner.Worker` drives a forked worker exactly as it drives a fresh one: same pipes, same
protocol, and time, memory and killing by pid through ``/proc``. The forked worker is the zygote's child, not
ours, so :class:`ForkedProcess` stands in for ``subprocess.Popen``: the zygote reaps the worker and reports its
exit status, and keeps it a zombie until :meth:`ForkedProcess.release`, so the pid we signal is never reused.
Under L2 the zygote lives in bubblewrap's PID namespace and names its workers by their pids there; each is
translated once, when forked, into the pid the judge sees (:func:`judge.worker.procfs.host_pid`). A worker in a
PID namespace of its own (:mod:`judge.worker.pidns`) is measured and killed by its own pid, while its exit status
and release go through its stand-in's, which the zygote reaps (:class:`ForkedProcess`: ``pid`` and ``inner``).
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import signal
import socket
import subprocess
import time
from typing import Any

from judge.errors import InternalError
from judge.worker import cgroup, procfs
from judge.worker.confinement import Confinement
from judge.worker.launch import Started, start_zygote, worker_group
from judge.worker.zygote import PACKET

START_S = 120.0
"""how long the zygote may take to import torch"""
PRELOAD_S = START_S
"""how long it may take to import what a problem preloads (of the same order)"""
REPLY_S = 30.0


class ForkServer:
    """The judge's handle on one warm process (a zygote), used by one thread at a time (one job slot)."""

    def __init__(self, confinement: Confinement) -> None:
        self.confinement = confinement
        """the layers every worker it forks gets, those of a fresh worker (the zygote starts inside them)"""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.started = start_zygote(theirs.fileno(), confinement)
        except OSError as exc:
            ours.close()
            raise InternalError("worker_start_failed", reason=exc.strerror) from None
        finally:
            theirs.close()
        self.control = ours
        self.exited: dict[int, int] = {}
        """exit statuses reported and not yet released, by pid"""
        self.dead = False
        ready = self._receive("ready", START_S)
        if ready is None:
            self.close()
            raise InternalError("worker_start_failed", reason="the warm worker did not start")
        self.pid = procfs.host_pid(self.started.process.pid, ready["pid"]) or self.started.process.pid
        """the zygote's own pid (under L2, bubblewrap's is ``started.process.pid``)"""
        self.depth = len(procfs.namespace_ids(self.pid)) - 1
        """how many PID namespaces the zygote's own is below the judge's: where a worker's ``NSpid`` has the id
        the zygote names it by"""
        self.preloaded: set[str] = set()

    def preload(self, modules: tuple[str, ...]) -> list[str]:
        """Have the zygote import ``modules`` (those it has not yet) before it forks again: every later worker
        starts with them instead of importing them on its first use. A line for each that could not be imported."""
        wanted = [name for name in modules if name not in self.preloaded]
        if not wanted or self.dead:
            return []
        try:
            self.control.send(json.dumps({"type": "preload", "modules": wanted}).encode())
        except OSError:
            self.dead = True
        reply = self._receive("preloaded", PRELOAD_S)
        if reply is None:
            raise InternalError("worker_start_failed", reason="the warm worker did not preload " + ", ".join(wanted))
        failed = reply.get("failed")
        failed = {str(name): str(how) for name, how in failed.items()} if isinstance(failed, dict) else {}
        self.preloaded.update(name for name in wanted if name not in failed)
        return [f"{name}: {how}" for name, how in failed.items()]

    def launch(self, solution: bytes, fds: tuple[int, int], output_fd: int, memory_bytes: int) -> Started:
        """Have the zygote fork a worker in a fresh scratch directory of its own, handing it the submission's
        bytes ``solution`` in a sealed memfd that only the forked worker reads (see :func:`judge.worker.launch.start`
        and :mod:`judge.worker.zygote`): the warm process never holds a submission's bytes."""
        uid = None if self.confinement.bwrap else self.confinement.uid  # in the view, the zygote's uid is it
        message = {"type": "fork", "memory_bytes": memory_bytes, "uid": uid,
                   "private_mounts": self.confinement.private_mounts, "ipc": self.confinement.ipc}
        try:
            source = sealed(solution)
        except OSError as exc:
            raise InternalError("worker_start_failed", reason=exc.strerror) from None
        try:
            socket.send_fds(self.control, [json.dumps(message).encode()], [fds[0], fds[1], output_fd, source])
        except OSError:
            self.dead = True
        finally:
            os.close(source)
        reply = None if self.dead else self._receive(("forked", "fork_failed"), REPLY_S)
        if reply is None or reply["type"] != "forked":
            reason = reply["reason"] if reply else "the warm worker has stopped"
            raise InternalError("worker_start_failed", reason=reason)
        inner, worker = reply["pid"], reply.get("worker", reply["pid"])
        outer = worker if self.pid == self.started.process.pid else procfs.host_pid(self.pid, worker, self.depth)
        if outer is None:  # it ended before it could be found: it is still the zygote's zombie, never ours
            self.release(inner)
            raise InternalError("worker_start_failed", reason="the forked worker ended at once")
        scratch = str(reply.get("scratch", self.started.scratch))
        return _ForkedStarted(ForkedProcess(self, inner, outer), self.started.scratch,
                              self._group(inner, outer, memory_bytes), *self.confinement.watched(scratch))

    def _group(self, inner: int, pid: int, memory_bytes: int) -> cgroup.Group | None:
        """The forked worker's own cgroup, joined before it is sent its first request (no submission code has
        run in it yet: it waits for ``setup``)."""
        group = worker_group(self.confinement, memory_bytes)
        if group is None:
            return None
        try:
            group.join(pid)
        except OSError:
            group.remove()
            os.kill(pid, signal.SIGKILL)
            self.release(inner)
            raise InternalError("worker_start_failed", reason="the forked worker could not join its cgroup") from None
        return group

    def _receive(self, wanted: str | tuple[str, ...], timeout: float) -> dict[str, Any] | None:
        """Read packets until one of type ``wanted`` arrives (None on timeout or when the zygote is gone)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self._pump(deadline)
            if message is None or message["type"] in wanted:
                return message

    def status(self, pid: int, timeout: float) -> int | None:
        """``pid``'s exit status once the zygote has reported it; a dead zygote's workers died with it."""
        deadline = time.monotonic() + timeout
        while pid not in self.exited and self._pump(deadline) is not None:
            pass
        if pid in self.exited:
            return self.exited[pid]
        return -signal.SIGKILL if self.dead else None

    def _pump(self, deadline: float) -> dict[str, Any] | None:
        """Read one packet and record it if it reports an exit (None on timeout or when the zygote is gone)."""
        if self.dead:
            return None
        ready, _, _ = select.select([self.control], [], [], max(deadline - time.monotonic(), 0.0))
        if not ready:
            return None
        try:
            data = self.control.recv(PACKET)
        except OSError:
            data = b""
        if not data:
            self.dead = True
            return None
        message = json.loads(data)
        if message["type"] == "exited":
            self.exited[message["pid"]] = message["status"]
        return message

    def release(self, pid: int) -> None:
        self.exited.pop(pid, None)
        if not self.dead:
            try:
                self.control.send(json.dumps({"type": "release", "pid": pid}).encode())
            except OSError:
                self.dead = True

    @property
    def alive(self) -> bool:
        return not self.dead and self.started.process.poll() is None

    def close(self) -> None:
        """Closing the socket ends the zygote; its workers die with it."""
        self.control.close()
        try:
            self.started.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.started.process.kill()
            self.started.process.wait()
        self.started.cleanup()


def sealed(data: bytes) -> int:
    """A descriptor of a memfd holding ``data``, sealed against any change, at offset 0."""
    fd = os.memfd_create("judge-submission", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW
                    | fcntl.F_SEAL_WRITE)
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd


class ForkedProcess:
    """What a :class:`judge.worker.runner.Worker` uses of ``subprocess.Popen``, for a worker a zygote forked."""

    def __init__(self, zygote: ForkServer, inner: int, pid: int):
        self.zygote, self.inner, self.pid = zygote, inner, pid
        """``pid``: the worker, as the judge sees it; ``inner``: the zygote's child (the worker, or its stand-in),
        as the zygote names it"""
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.zygote.status(self.inner, 0.0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = self.zygote.status(self.inner, START_S if timeout is None else timeout)
        if self.returncode is None:
            raise subprocess.TimeoutExpired(f"worker {self.pid}", timeout or START_S)
        return self.returncode

    def release(self) -> None:
        """The worker has been killed and waited for: the zygote may reap it now, which frees its pid."""
        self.zygote.release(self.inner)


class _ForkedStarted(Started):
    process: ForkedProcess

    def cleanup(self) -> None:
        """The zygote removes the worker's scratch directory when it releases the worker."""
        self.process.release()
        if self.group is not None:
            self.group.remove()
