"""The warm process: imports torch once, then forks a fresh worker per request, so a worker costs a fork, not
an interpreter start and ``import torch`` (about 1.5 s, shared/research/numerics.md §5.3).

Usage: ``python -I -m judge.worker.zygote CONTROL_FD`` (started by :func:`judge.worker.sandbox.start_zygote`).

Control protocol on a Unix ``SOCK_SEQPACKET`` socket, one JSON object per packet:

* zygote -> parent, once: ``ready``.
* parent -> zygote: ``fork`` (``solution``, ``scratch``, ``memory_bytes``, ``uid``, ``seccomp``) with three descriptors attached: the
  worker's ends of the request, response and output pipes. The zygote forks; the child confines itself
  (:func:`judge.worker.sandbox.confine_forked_worker`) and runs the worker protocol (:func:`judge.worker.main.serve`).
  The zygote closes its copies of the descriptors and answers ``forked`` (``pid``) or ``fork_failed`` (``reason``).
* zygote -> parent: ``exited`` (``pid``, ``status``: exit code, or minus the signal, as ``subprocess`` says)
  when a worker ends. The worker is left a zombie, so its pid cannot be reused while the parent may still
  signal it, until the parent sends ``release`` (``pid``); a worker still running then is killed first.

Why forking is safe here: with one thread (``OMP_NUM_THREADS=1``, ``torch.set_num_threads(1)``) the zygote
only imports and builds one fixed case (:func:`judge.worker.main.prepare`, as every fresh worker does), so no
OpenMP or MKL pool exists when it forks, and it never runs autograd's backward, whose first call arms fork
handlers that break autograd in every child (pytorch wiki "Autograd and Fork"). It checks that it has one
thread before every fork. It never holds a case of the problem, an expected value or a submission, so each
child starts from the same state, and ``gc.freeze()`` keeps the inherited heap shared instead of copied.
When the parent's end of the socket closes, the zygote exits and its workers die with it
(``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import gc
import json
import os
import select
import signal
import socket
import sys
import traceback
from pathlib import Path
from typing import Any

PACKET = 1 << 16


def _send(control: socket.socket, message: dict[str, Any]) -> None:
    control.send(json.dumps(message).encode())


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


def _run_child(message: dict[str, Any], fds: list[int], zygote: int) -> None:
    """In the forked child: confine, serve, exit. Never returns."""
    from judge.worker import main, sandbox

    code = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        request_r, response_w, output_w = fds
        uid = message.get("uid")
        sandbox.confine_forked_worker(Path(message["scratch"]), int(message["memory_bytes"]), output_w,
                                      (request_r, response_w), zygote, None if uid is None else int(uid))
        main.serve(os.fdopen(request_r, "rb"), os.fdopen(response_w, "wb"), message["solution"],
                   bool(message.get("seccomp")))
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


class Zygote:
    def __init__(self, control: socket.socket):
        self.control = control
        self.running: set[int] = set()
        """forked workers whose end has not been reported yet"""
        self.ended: set[int] = set()
        """reported, not yet released"""

    def fork(self, message: dict[str, Any], fds: list[int]) -> None:
        threads = _threads()
        if threads != 1 or len(fds) != 3:
            for fd in fds:
                os.close(fd)
            _send(self.control, {"type": "fork_failed", "reason": f"{threads} threads, {len(fds)} descriptors"})
            return
        zygote = os.getpid()
        pid = os.fork()
        if pid == 0:
            _run_child(message, fds, zygote)
        for fd in fds:
            os.close(fd)
        self.running.add(pid)
        _send(self.control, {"type": "forked", "pid": pid})

    def report_ended(self) -> None:
        for pid in sorted(self.running):
            status = _status(pid)
            if status is not None:
                self.running.discard(pid)
                self.ended.add(pid)
                _send(self.control, {"type": "exited", "pid": pid, "status": status})

    def release(self, pid: int) -> None:
        if pid not in self.running | self.ended:
            return
        if pid in self.running:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        os.waitpid(pid, 0)
        self.running.discard(pid)
        self.ended.discard(pid)

    def serve(self) -> None:
        wake_r, wake_w = os.pipe()
        for fd in (wake_r, wake_w):
            os.set_blocking(fd, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        _send(self.control, {"type": "ready"})
        while True:
            ready, _, _ = select.select([self.control, wake_r], [], [])
            if wake_r in ready:
                _drain(wake_r)
                self.report_ended()
            if self.control in ready:
                data, fds, _, _ = socket.recv_fds(self.control, PACKET, 3)
                if not data:
                    return  # the judge has gone
                message = json.loads(data)
                if message["type"] == "fork":
                    self.fork(message, fds)
                    self.report_ended()  # a child that ended before SIGCHLD was handled
                elif message["type"] == "release":
                    self.release(int(message["pid"]))


def main() -> None:
    control = socket.socket(fileno=int(sys.argv[1]))
    from judge.worker import main as worker
    from judge.worker import sandbox, seccomp  # noqa: F401 -- imported by every child, before its uid changes

    worker.prepare()
    try:
        import numpy  # noqa: F401 -- imported by every worker when present (judge.worker.main)
    except ImportError:
        pass
    gc.collect()
    gc.freeze()  # a collection in a child would write to every object it inherited, copying the whole heap
    Zygote(control).serve()


if __name__ == "__main__":
    main()
