"""No power over the judge: a worker drops every capability; the judge and its zygotes hide their ``/proc`` files.

A process running as root keeps, with its capabilities, the power to ignore file modes (``CAP_DAC_OVERRIDE``),
to read any process's memory (``CAP_SYS_PTRACE``), to signal anyone (``CAP_KILL``)... When the uid cannot be
changed (an interpreter under ``/root``), a worker therefore empties all five capability sets itself, before the
submission is imported: the bounding set (while it still may, before it changes its uid), then ambient,
inheritable, permitted and effective, and sets ``no_new_privs`` so nothing it executes can gain any back.

The judge and every zygote make themselves non-dumpable (``PR_SET_DUMPABLE`` 0): their ``/proc/<pid>/mem``,
``environ``, ``fd`` and the like then need ``CAP_SYS_PTRACE``, which no worker has. A forked worker turns it
back on for itself, so that the judge, even when not root, can reset its peak-memory counter.
"""

from __future__ import annotations

import ctypes
import errno
import functools

from judge.worker import libc

PR_CAPBSET_DROP = 24
PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
CAPABILITY_VERSION_3 = 0x20080522
CAP_SETPCAP = 8
LAST_CAP_FILE = "/proc/sys/kernel/cap_last_cap"


class _Header(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _Data(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _prctl(*args: int) -> int:
    return libc.load().prctl(*(ctypes.c_ulong(a) for a in args), *(ctypes.c_ulong(0) for _ in range(5 - len(args))))


def capabilities() -> tuple[int, int, int]:
    """This process's effective, permitted and inheritable sets, as bit masks."""
    header, data = _Header(CAPABILITY_VERSION_3, 0), (_Data * 2)()
    libc.checked(libc.load().capget(ctypes.byref(header), data), "capget")
    return tuple(data[0].__getattribute__(f) | data[1].__getattribute__(f) << 32  # type: ignore[return-value]
                 for f in ("effective", "permitted", "inheritable"))


@functools.cache
def last_cap() -> int:
    """The highest capability this kernel knows; read once per process (a zygote reads it for every worker it
    forks, which cover ``/proc``: :func:`judge.worker.mounts.hide_proc`)."""
    try:
        with open(LAST_CAP_FILE) as f:
            return int(f.read())
    except (OSError, ValueError):
        return 63


def drop_bounding() -> None:
    """Empty the bounding set, where this process may (it needs ``CAP_SETPCAP``: root before a uid change)."""
    if not capabilities()[0] >> CAP_SETPCAP & 1:
        return
    for cap in range(last_cap() + 1):
        libc.checked(_prctl(PR_CAPBSET_DROP, cap), f"dropping capability {cap} from the bounding set")


def drop_all() -> None:
    """``no_new_privs``; empty ambient, inheritable, permitted and effective sets (and the bounding set, if it
    still can). Raises ``OSError`` if any capability is left."""
    libc.checked(_prctl(PR_SET_NO_NEW_PRIVS, 1), "no_new_privs")
    drop_bounding()
    _prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)  # EINVAL on kernels without ambient sets: nothing to clear
    header, data = _Header(CAPABILITY_VERSION_3, 0), (_Data * 2)()
    libc.checked(libc.load().capset(ctypes.byref(header), data), "capset")
    if any(capabilities()):
        raise OSError(errno.EPERM, "capabilities are left after dropping them")


def set_dumpable(dumpable: bool) -> None:
    libc.checked(_prctl(PR_SET_DUMPABLE, int(dumpable)), "PR_SET_DUMPABLE")
