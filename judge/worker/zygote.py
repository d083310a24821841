"""The warm process: imports torch once, then forks a fresh worker per request, so a worker costs a fork, not
an interpreter start and ``import torch`` (about 1.7 s, ``docs/numerics.md`` §5).

Usage: ``python -I -B -m judge.worker.zygote CONTROL_FD [--seccomp] [--landlock=SECRETS]`` (started by
:func:`judge.worker.launch.start_zygote`, under L2 inside the bubblewrap view of a fresh worker). The flags are
a fresh worker's (:class:`judge.worker.main.Lockdown`): every worker forked locks itself down with them.

Control protocol on a Unix ``SOCK_SEQPACKET`` socket, one JSON object per packet:

* zygote -> parent, once: ``ready`` (``pid``: its own, as its PID namespace numbers it).
* parent -> zygote: ``fork`` (``memory_bytes``, ``uid``, ``private_mounts``, ``ipc``: how the child gets an IPC
  namespace of its own, :func:`judge.worker.ipc.isolate`) with four descriptors attached: the
  worker's ends of the request, response and output pipes, and a sealed memfd holding the submission's bytes
  (as the judge read and hashed them). The zygote makes a fresh scratch directory of its own (removed when the
  worker is released, so nothing a worker writes reaches the next) and forks; only the child reads the memfd,
  writes ``solution.py``, confines itself (:func:`judge.worker.launch.confine_forked_worker`) and runs the worker
  protocol (:func:`judge.worker.main.serve`). With ``private_mounts``, the child first makes a PID namespace and
  forks the worker into it, staying outside as its stand-in (:mod:`judge.worker.pidns`). The zygote closes its
  copies of the descriptors, never having read one byte of the submission, and answers ``forked`` (``pid``: the
  child's, in the zygote's namespace; ``worker``: the worker's there, the stand-in's child or the child itself;
  ``scratch``: the worker's directory) or ``fork_failed`` (``reason``).
* parent -> zygote: ``preload`` (``modules``): import these before any later fork, so that every worker starts
  with them (what torch imports lazily on a first use, named by the problem: ``[worker] preload``). Answered
  ``preloaded`` (``failed``: each module that could not be imported, with how it failed, which the judge reports
  as a fault of the problem's package).
* zygote -> parent: ``exited`` (``pid``, ``status``: exit code, or minus the signal, as ``subprocess`` says)
  when a worker (or its stand-in, which ends as the worker did) ends. The worker is left a zombie, so its pid
  cannot be reused while the parent may still signal it, until the parent sends ``release`` (``pid``); a worker
  still running then is killed first. The zygote is a child subreaper: a worker whose stand-in has ended is
  handed to it, and reaped on release.

Why forking is safe here: with one thread (``OMP_NUM_THREADS=1``, ``torch.set_num_threads(1)``) the zygote
only imports (torch, and what a problem preloads) and builds one fixed case (:func:`judge.worker.main.prepare`,
as every fresh worker does), so no OpenMP or MKL pool exists when it forks, and it never runs autograd's backward,
whose first call arms fork handlers that break autograd in every child (pytorch wiki "Autograd and Fork"). It
checks that it has one thread before every fork. It never holds a case of the problem, an expected value or a submission's bytes (not
even in memory it has freed: the child reads its submission after the fork), so each child starts from the same
state, whatever the workers before it ran, and ``gc.freeze()`` keeps the inherited heap shared instead of copied.
When the parent's end of the socket closes, the zygote exits and its workers die with it
(``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import io
import json
import os
import select
import shutil
import signal
import socket
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

from judge.worker import landlock, libc, pidns, privileges
from judge.worker.main import Lockdown

PACKET = 1 << 16
"""the largest control packet either side reads (:class:`judge.worker.forkserver.ForkServer` too)"""
FORK_FDS = 4
TOLD_S = 30.0
"""how long a forked child may take to make the worker's PID namespace and name the worker"""
COPY_CHUNK = 1 << 20


def _send(control: socket.socket, message: dict[str, Any]) -> None:
    control.send(json.dumps(message).encode())


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


def _run_child(message: dict[str, Any], fds: list[int], zygote: int, scratch: str, lockdown: Lockdown,
               told: int) -> None:
    """In the forked child: confine, serve, exit. Never returns. With ``told`` (not -1), the worker is forked
    again into a PID namespace of its own and this child stays as its stand-in (:func:`judge.worker.pidns.enter`)."""
    from judge.worker import launch, main

    code = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        if told >= 0:
            pidns.enter(told, zygote)
        request_r, response_w, output_w, source = fds
        solution = _read_all(source)
        os.close(source)
        uid, private_mounts = message.get("uid"), bool(message.get("private_mounts"))
        if not private_mounts:  # else it is written only inside the worker's own tmpfs, never beneath it
            target = os.path.join(scratch, "solution.py")
            with open(target, "wb") as out:
                out.write(solution)
            os.chmod(target, 0o644)
        launch.confine_forked_worker(Path(scratch), int(message["memory_bytes"]), output_w,
                                      (request_r, response_w), zygote, None if uid is None else int(uid),
                                      private_mounts, solution, str(message.get("ipc") or ""))
        main.serve(os.fdopen(request_r, "rb", buffering=0), os.fdopen(response_w, "wb"),
                   os.path.join(scratch, "solution.py"), lockdown)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 -- shown in the worker's output, as a fresh interpreter would
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001
                pass
        os._exit(code)


def _status(pid: int) -> int | None:
    """The exit status of a child that has ended, without reaping it (``WNOWAIT``)."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return -signal.SIGKILL
    if info is None:
        return None
    return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 4096):
            pass
    except BlockingIOError:
        pass


def _read_all(fd: int) -> bytes:
    """In the forked child: the submission's bytes from the judge's memfd."""
    chunks = []
    while chunk := os.read(fd, COPY_CHUNK):
        chunks.append(chunk)
    return b"".join(chunks)


def _scratch(uid: int | None) -> str:
    """A fresh, empty directory in the zygote's own, owned by the worker's uid."""
    scratch = tempfile.mkdtemp(prefix="judge-worker-", dir=os.getcwd())
    if uid is not None:
        os.chown(scratch, uid, uid)
    return scratch


class Zygote:
    def __init__(self, control: socket.socket, lockdown: Lockdown):
        self.control, self.lockdown = control, lockdown
        self.running: set[int] = set()
        """forked workers whose end has not been reported yet"""
        self.ended: set[int] = set()
        """reported, not yet released"""
        self.scratch: dict[int, str] = {}
        """each worker's scratch directory, removed when it is released"""
        self.inside: dict[int, int] = {}
        """the worker in a PID namespace of its own, by its stand-in's pid (:mod:`judge.worker.pidns`)"""

    def fork(self, message: dict[str, Any], fds: list[int]) -> None:
        threads = _threads()
        try:
            if threads != 1 or len(fds) != FORK_FDS:
                raise OSError(f"{threads} threads, {len(fds)} descriptors")
            uid = message.get("uid")
            scratch = _scratch(None if uid is None else int(uid))
        except (OSError, ValueError) as exc:
            for fd in fds:
                os.close(fd)
            _send(self.control, {"type": "fork_failed", "reason": str(exc)})
            return
        zygote, own_pids = os.getpid(), bool(message.get("private_mounts"))
        told_r, told_w = os.pipe() if own_pids else (-1, -1)
        pid = os.fork()
        if pid == 0:
            if own_pids:
                os.close(told_r)
            _run_child(message, fds, zygote, scratch, self.lockdown, told_w)
        for fd in fds:
            os.close(fd)
        self.running.add(pid)
        self.scratch[pid] = scratch
        worker = pid
        if own_pids:
            os.close(told_w)
            worker, why = pidns.told(told_r, TOLD_S)
            if worker is None:
                self.release(pid)
                _send(self.control, {"type": "fork_failed", "reason": why})
                return
            self.inside[pid] = worker
        _send(self.control, {"type": "forked", "pid": pid, "worker": worker, "scratch": scratch})

    def report_ended(self) -> None:
        for pid in sorted(self.running):
            status = _status(pid)
            if status is not None:
                self.running.discard(pid)
                self.ended.add(pid)
                _send(self.control, {"type": "exited", "pid": pid, "status": status})

    def release(self, pid: int) -> None:
        """Kill the worker ``pid`` if it still runs and reap it (with the worker in a PID namespace of its own,
        whose stand-in ``pid`` is: then the zygote, its subreaper, reaps it too), and remove its scratch directory."""
        if pid not in self.running | self.ended:
            return
        inside = self.inside.pop(pid, None)
        for each in (inside, pid):
            if each is not None:
                with contextlib.suppress(OSError):
                    os.kill(each, signal.SIGKILL)
        os.waitpid(pid, 0)
        if inside is not None:  # the stand-in has been reaped, so the worker is the zygote's child now
            with contextlib.suppress(ChildProcessError):
                os.waitpid(inside, 0)
        self.running.discard(pid)
        self.ended.discard(pid)
        shutil.rmtree(self.scratch.pop(pid), ignore_errors=True)

    def serve(self) -> None:
        wake_r, wake_w = os.pipe()
        for fd in (wake_r, wake_w):
            os.set_blocking(fd, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        _send(self.control, {"type": "ready", "pid": os.getpid()})
        while True:
            ready, _, _ = select.select([self.control, wake_r], [], [])
            if wake_r in ready:
                _drain(wake_r)
                self.report_ended()
            if self.control in ready:
                data, fds, _, _ = socket.recv_fds(self.control, PACKET, FORK_FDS)
                if not data:
                    return  # the judge has gone
                message = json.loads(data)
                if message["type"] == "fork":
                    self.fork(message, fds)
                    self.report_ended()  # a child that ended before SIGCHLD was handled
                elif message["type"] == "release":
                    self.release(int(message["pid"]))
                elif message["type"] == "preload":
                    _send(self.control, {"type": "preloaded", "failed": _preload(message["modules"])})


def _preload(modules: list[str]) -> dict[str, str]:
    """Import ``modules``, whatever they print; each that failed, with how."""
    failed = {}
    for name in modules:
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                importlib.import_module(name)
        except (Exception, SystemExit) as exc:  # noqa: BLE001 -- a module may fail or exit in any way
            failed[name] = f"{type(exc).__name__}: {exc}"
    gc.collect()
    gc.freeze()  # what the imports made, shared with every child as the rest of the heap is
    return failed


def main() -> None:
    control = socket.socket(fileno=int(sys.argv[1]))
    privileges.set_dumpable(False)  # a worker of the same uid cannot read this process's /proc files
    libc.become_subreaper()  # a worker whose stand-in has ended is reaped here, on release (judge.worker.pidns)
    from judge.worker import main as worker
    from judge.worker import launch, seccomp  # noqa: F401 -- imported by every child, before its uid changes

    worker.prepare()
    try:
        import numpy  # noqa: F401 -- imported by every worker when present (judge.worker.main)
    except ImportError:
        pass
    lockdown = Lockdown.from_argv(sys.argv[2:])
    if lockdown.secrets is not None:  # the read-only paths are the same for every worker: found once, here
        secrets = lockdown.secrets.resolved()
        lockdown = Lockdown(lockdown.seccomp, secrets, tuple(landlock.readable(secrets)))
    if lockdown.seccomp:
        seccomp.warm_up()
    landlock.abi()
    privileges.capabilities(), privileges.last_cap()  # what these read, read once for every child
    gc.collect()
    gc.freeze()  # a collection in a child would write to every object it inherited, copying the whole heap
    try:
        Zygote(control, lockdown).serve()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the judge went away (closed, or interrupted while this started): there is no one left to serve


if __name__ == "__main__":
    main()
