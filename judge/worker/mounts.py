"""Below L2, when the judge runs as root: a worker's own mount namespace, read-only but for a sized scratch tmpfs.

Without it a worker below L2 writes on the judge's disks: its scratch directory (and, at L0, every directory
its uid may write: ``/tmp``, ``/var/tmp``, ``/dev/shm``), each file capped by ``RLIMIT_FSIZE`` but not their
number. In a mount namespace of its own, every mount it inherited is made read-only and private at once
(``mount_setattr`` with ``AT_RECURSIVE``), and a tmpfs of a fixed size is mounted over its scratch directory,
holding a copy of the submission: the disk it can fill is that tmpfs, whose pages its memory cgroup also
counts, and all of it vanishes with its namespace. The judge's own view is untouched.
"""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

from judge.worker import libc

CLONE_NEWNS = 0x00020000
AT_FDCWD = -100
AT_RECURSIVE = 0x8000
MOUNT_ATTR_RDONLY = 0x1
MS_PRIVATE = 1 << 18
MS_NOSUID, MS_NODEV = 0x2, 0x4
SYS_MOUNT_SETATTR = 442
"""the same number on every architecture (new system calls are numbered once for all)"""


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64), ("propagation", ctypes.c_uint64),
                ("userns_fd", ctypes.c_uint64)]


def private_scratch(scratch: Path, solution: bytes, size: int, uid: int | None) -> None:
    """In the calling process (root, one thread, before its uid changes): a mount namespace of its own with
    every inherited mount read-only, and a ``size``-byte tmpfs over ``scratch`` holding ``solution.py``."""
    c = libc.load()
    libc.checked(c.unshare(CLONE_NEWNS), "unshare")
    attr = _MountAttr(MOUNT_ATTR_RDONLY, 0, MS_PRIVATE, 0)
    libc.checked(c.syscall(SYS_MOUNT_SETATTR, AT_FDCWD, b"/", AT_RECURSIVE, ctypes.byref(attr),
                          ctypes.sizeof(attr)), "mount_setattr")
    owner = 0 if uid is None else uid
    options = f"size={size},mode=0700,uid={owner},gid={owner}".encode()
    libc.checked(c.mount(b"tmpfs", str(scratch).encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options), "mount")
    target = scratch / "solution.py"
    target.write_bytes(solution)
    target.chmod(0o644)
    os.chdir(scratch)  # the working directory was the directory below the new mount
