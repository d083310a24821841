"""No channel between workers through process ids: a PID namespace of its own for every worker a warm process forks.

A PID namespace hands out ids from one counter, in turn. The workers a zygote forks all lived in its namespace
(under L2 bubblewrap's, below L2 the machine's), so a worker that started and joined N threads moved the next
worker's pid on by N, and that worker read it back as its own pid (about 15 bits a worker). So the
zygote's child makes a new PID namespace and forks the worker into it (:func:`enter`): every worker is pid 1 of a
counter of its own, and its threads are 2, 3, ... whatever ran before it. The namespaces above still number it,
and their ``/proc`` shows those numbers, so the worker also covers ``/proc`` in its own mount namespace
(:func:`judge.worker.mounts.hide_proc`): a worker gets a PID namespace where it gets private mounts.

The zygote's child stays behind, outside the new namespace, where the worker cannot name it: the worker's stand-in.
It tells the zygote the worker's pid, waits for the worker to end without reaping it (its pid must not be reused
while the judge may still signal it; the zygote, a child subreaper, reaps it on release) and ends the way the
worker ended, so the zygote reports the worker's own exit status. It is a fork of the zygote that touches almost
nothing, so it costs a fork and little memory; the judge measures the worker, not it.
"""

from __future__ import annotations

import os
import resource
import select
import signal

from judge.worker import libc

CLONE_NEWPID = 0x20000000
TOLD_BYTES = 512
"""the most the stand-in writes to the zygote: a pid, or ``!`` and why the namespace could not be made"""


def enter(told: int, zygote: int) -> None:
    """In a zygote's child (one thread, nothing confined yet): make a PID namespace and fork the worker into it.

    Returns only in the worker, the new namespace's pid 1, with ``told`` closed. The child becomes the worker's
    stand-in and never returns: it writes the worker's pid (as the zygote numbers it) to ``told``, or ``!`` and
    why no namespace could be made, then ends as the worker ends. It dies with the zygote (``zygote``: its pid)."""
    libc.die_with_parent()
    if os.getppid() != zygote:  # the zygote died before the line above took effect
        os._exit(1)
    try:
        libc.unshare(CLONE_NEWPID)
        pid = os.fork()
    except OSError as exc:
        os.write(told, f"!{exc}".encode()[:TOLD_BYTES])
        os._exit(1)
    if pid == 0:
        os.close(told)
        return
    os.write(told, str(pid).encode())
    _stand_in(pid)


def _stand_in(pid: int) -> None:
    """Wait for the worker ``pid`` to end, leaving it unreaped, and end as it did. Never returns."""
    os.closerange(0, resource.getrlimit(resource.RLIMIT_NOFILE)[0])  # no end of the worker's pipes stays open here
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # it ends by the worker's signal: without leaving a core
    info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    if info.si_code == os.CLD_EXITED:
        os._exit(info.si_status)
    if info.si_status not in (signal.SIGKILL, signal.SIGSTOP):
        signal.signal(info.si_status, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [info.si_status])
    os.kill(os.getpid(), info.si_status)
    os._exit(128 + info.si_status)


def told(fd: int, timeout_s: float) -> tuple[int | None, str]:
    """In the zygote: the worker's pid as the stand-in told it on ``fd`` (which is closed), or None and why not."""
    data = b""
    try:
        while len(data) < TOLD_BYTES and select.select([fd], [], [], timeout_s)[0]:
            chunk = os.read(fd, TOLD_BYTES)
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    text = data.decode(errors="replace")
    if text.isdigit():
        return int(text), ""
    return None, text.removeprefix("!") or "the worker's PID namespace was not made in time"
