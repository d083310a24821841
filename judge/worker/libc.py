"""The C library for the worker layers' ctypes calls (capabilities, Landlock, mounts, namespaces, the death
signal).

Loaded once per process, and a zygote's children inherit it: each ``CDLL`` costs most of a millisecond, paid
otherwise by every fresh worker between fork and exec.
"""

from __future__ import annotations

import ctypes
import functools
import os
import signal

PR_SET_PDEATHSIG = 1
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
