"""The C library for the worker layers' ctypes calls (capabilities, Landlock, mounts, namespaces, the death
signal).

Loaded once per process, and a zygote's children inherit it: each ``CDLL`` costs most of a millisecond, paid
otherwise by every fresh worker between fork and exec.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import os
import signal
from typing import Callable

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
CLONE_NEWUSER = 0x10000000


@functools.cache
def load() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def checked(result: int, what: str) -> None:
    """Raise ``OSError`` naming ``what`` when a call returned non-zero (the error is in ``errno``)."""
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{what}: {os.strerror(code)}")


def die_with_parent(sign: int = signal.SIGKILL) -> None:
    """Have the kernel send this process ``sign`` when the thread that started it ends."""
    load().prctl(PR_SET_PDEATHSIG, sign)


def unshare_as_self(flags: int) -> None:
    """``unshare(CLONE_NEWUSER | flags)`` with only this process's own uid and gid mapped, so ids, file access
    and a later lock-down are as before. In the new user namespace the process holds every capability, over the
    namespaces made with it alone: how a process with none (inside bubblewrap's view) makes an IPC or mount
    namespace. It needs a single-threaded process."""
    uid, gid = os.getuid(), os.getgid()
    checked(load().unshare(CLONE_NEWUSER | flags), "unshare")
    for name, text in (("uid_map", f"{uid} {uid} 1\n"), ("setgroups", "deny"), ("gid_map", f"{gid} {gid} 1\n")):
        with open(f"/proc/self/{name}", "w") as file:
            file.write(text)


def unshare(flags: int) -> None:
    """``unshare(flags)``; where the process lacks ``CAP_SYS_ADMIN`` (``EPERM``: inside bubblewrap's view, or a
    judge that is not root), the same in a user namespace of its own (:func:`unshare_as_self`)."""
    if load().unshare(flags) == 0:
        return
    code = ctypes.get_errno()
    if code != errno.EPERM:
        raise OSError(code, f"unshare: {os.strerror(code)}")
    unshare_as_self(flags)


def become_subreaper() -> None:
    """Have the kernel hand this process its descendants that lose their parent (``PR_SET_CHILD_SUBREAPER``), so
    that it, not init, reaps them."""
    load().prctl(PR_SET_CHILD_SUBREAPER, 1)


def forked(body: Callable[[], int]) -> int:
    """``body()``'s exit code, run in a forked child, so this process is left as it was (255 when it raised)."""
    pid = os.fork()
    if pid == 0:
        code = 255
        try:
            code = body()
        except BaseException:  # noqa: BLE001 -- the child must never return into the caller's code
            pass
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def reason(code: int) -> str | None:
    """A forked check's exit code (:func:`forked`) as why it failed: None for 0, else the errno's text."""
    return None if code == 0 else os.strerror(code) if 0 < code < 255 else f"exit status {code}"
