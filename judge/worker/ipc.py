"""No channel between workers through System V IPC or POSIX message queues: an IPC namespace per worker.

Shared memory segments, semaphore sets, message queues and POSIX message queues live in the IPC namespace, not in
a file, a mount or a process: one worker's segment is readable by any later process of that namespace, and it
outlives the worker (and the judge) until it is removed or its namespace dies. A warm process (zygote) forks every
worker of a ``judge grade`` slot, so under L2 they would all share the one namespace bubblewrap gave it, and below
L2 they would share the machine's, across separate judges too. So every worker enters a namespace of its own
before it drops its privileges (:func:`judge.worker.launch.confine_forked_worker`, and a fresh worker's
``preexec``), in one of two ways, the first that works here (:func:`working_mode`, probed once per judge):

* ``ipc``: ``unshare(CLONE_NEWIPC)``, which needs ``CAP_SYS_ADMIN`` (a judge running as root, below L2);
* ``user``: ``unshare(CLONE_NEWUSER | CLONE_NEWIPC)``, for a process without that capability (inside
  bubblewrap's user namespace, where a zygote's workers are, or a judge that is not root). The new user namespace
  maps only the process's own uid and gid, so ids, file access and the later lock-down are as before; it needs a
  single-threaded process, which a zygote's child and a fresh worker's ``preexec`` are.

The namespace dies with the worker, and every segment in it (nothing a worker makes outlives it); pages it touches
are charged to its memory cgroup where it has one. The seccomp filter refuses every IPC call too
(:data:`judge.worker.seccomp.DENIED`), so that a container where no namespace can be made is closed as well.
"""

from __future__ import annotations

import ctypes
import errno
import os

from judge.worker import libc

CLONE_NEWIPC = 0x08000000
MODES = {"ipc": CLONE_NEWIPC, "user": libc.CLONE_NEWUSER | CLONE_NEWIPC}
"""each way to a namespace of one's own, in the order they are tried"""
IPC_CREAT, IPC_PRIVATE = 0o1000, 0


def isolate(mode: str) -> None:
    """Put the calling process (single-threaded, privileges not yet dropped) in a new IPC namespace by ``mode``
    (one of :data:`MODES`; the empty string does nothing). Raises ``OSError`` when the kernel refuses."""
    if mode == "user":  # keep the ids: map only our own (an unprivileged process may map exactly that)
        libc.unshare_as_self(CLONE_NEWIPC)
    elif mode:
        libc.checked(libc.load().unshare(MODES[mode]), f"unshare ({mode})")


def namespace() -> str:
    """This process's IPC namespace, as ``/proc`` names it (``ipc:[inode]``)."""
    return os.readlink("/proc/self/ns/ipc")


def _child_code(mode: str) -> int:
    """In a forked child: 0 when ``mode`` gives a new namespace in which a segment can be made, else an errno."""
    before = namespace()
    try:
        isolate(mode)
    except OSError as exc:
        return exc.errno or 255
    if namespace() == before:
        return 255
    return 0 if shmget(IPC_PRIVATE, 4096) >= 0 else ctypes.get_errno() or 255


def _in_child(mode: str) -> int:
    return libc.forked(lambda: _child_code(mode))


def _filtered_code() -> int:
    from judge.worker import seccomp

    seccomp.install()
    return 0 if shmget(IPC_PRIVATE, 4096) == -1 and ctypes.get_errno() == errno.EPERM else 1


def filter_refuses() -> bool:
    """Whether a child of this process that installs the worker's seccomp filter is refused ``shmget``."""
    return libc.forked(_filtered_code) == 0


def working_mode() -> tuple[str, str]:
    """The first of :data:`MODES` that works for a child of this process, and why none does (empty when one does)."""
    failures = []
    for mode in MODES:
        code = _in_child(mode)
        if code == 0:
            return mode, ""
        failures.append(f"{mode}: {libc.reason(code)}")
    return "", "; ".join(failures)


def shmget(key: int, size: int) -> int:
    """``shmget(key, size, IPC_CREAT | 0600)``: a segment's id, or -1 with ``errno`` set."""
    call = libc.load().shmget
    call.restype, call.argtypes = ctypes.c_int, [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
    return call(key, size, IPC_CREAT | 0o600)
