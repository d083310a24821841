"""The C library for the worker layers' ctypes calls (capabilities, Landlock, mounts, the death signal).

Loaded once per process, and a zygote's children inherit it: each ``CDLL`` costs most of a millisecond, paid
otherwise by every fresh worker between fork and exec.
"""

from __future__ import annotations

import ctypes
import functools
import os
import signal

PR_SET_PDEATHSIG = 1


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
