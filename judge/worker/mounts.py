"""A worker's own mount namespace, read-only but for a sized scratch tmpfs: below L2 when the judge runs as root,
and for the workers a warm process forks in bubblewrap's view (L2).

Without it a worker below L2 writes on the judge's disks: its scratch directory (and, at L0, every directory
its uid may write: ``/tmp``, ``/var/tmp``, ``/dev/shm``), each file capped by ``RLIMIT_FSIZE`` but not their
number. At L2 the workers of one warm process share its view: where no Landlock keeps each to its own scratch
directory, one student's worker left files in ``/tmp`` and in the warm process's scratch folder for the next
student's to read (tests/adversarial/129 and 130). In a mount namespace of its own, every mount it inherited is
made read-only and private at once (``mount_setattr`` with ``AT_RECURSIVE``), and a tmpfs of a fixed size is
mounted over its scratch directory, holding a copy of the submission: the disk it can fill is that tmpfs, whose
pages its memory cgroup also counts, and all of it vanishes with its namespace. The judge's own view is untouched.
"""

from __future__ import annotations

import ctypes
import errno
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
    """In the calling process (one thread, before its uid changes): a mount namespace of its own with every
    inherited mount read-only, and a ``size``-byte tmpfs over ``scratch`` holding ``solution.py``. A process
    without ``CAP_SYS_ADMIN`` (a warm process's child in bubblewrap's view) makes it in a user namespace of its
    own (:func:`judge.worker.libc.unshare_as_self`)."""
    c = libc.load()
    if c.unshare(CLONE_NEWNS) != 0:
        code = ctypes.get_errno()
        if code != errno.EPERM:
            raise OSError(code, f"unshare: {os.strerror(code)}")
        libc.unshare_as_self(CLONE_NEWNS)
    attr = _MountAttr(MOUNT_ATTR_RDONLY, 0, MS_PRIVATE, 0)
    libc.checked(c.syscall(SYS_MOUNT_SETATTR, AT_FDCWD, b"/", AT_RECURSIVE, ctypes.byref(attr),
                          ctypes.sizeof(attr)), "mount_setattr")
    owner = os.getuid() if uid is None else uid
    options = f"size={size},mode=0700,uid={owner},gid={owner}".encode()
    libc.checked(c.mount(b"tmpfs", str(scratch).encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options), "mount")
    target = scratch / "solution.py"
    target.write_bytes(solution)
    target.chmod(0o644)
    os.chdir(scratch)  # the working directory was the directory below the new mount


def works_in_child(scratch: str, uid: int | None = None) -> str | None:
    """Make a worker's private mounts over a new folder ``scratch`` in a forked child; None when that works, else
    why not (the probe's question, below L2 and in bubblewrap's view)."""
    os.mkdir(scratch)
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            private_scratch(Path(scratch), b"", 1 << 20, uid)
        except OSError as exc:
            code = exc.errno or 255
        except BaseException:  # noqa: BLE001 -- the child must never return into its parent's code
            code = 255
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    os.rmdir(scratch)
    code = os.waitstatus_to_exitcode(status)
    return None if code == 0 else os.strerror(code) if 0 < code < 255 else f"exit status {code}"
