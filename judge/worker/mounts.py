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

Every worker at L2, and every one a warm process forks below it, also covers ``/proc`` (:func:`hide_proc`): what the
outer ``/proc`` shows names the PID namespaces above the worker's own (:mod:`judge.worker.pidns`), and each new
entry in it (``/proc/self/fd/N``) takes an inode number from a counter the whole machine shares.
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
from pathlib import Path

from judge.worker import landlock, libc, pidns, privileges

CLONE_NEWNS = 0x00020000
AT_FDCWD = -100
AT_RECURSIVE = 0x8000
MOUNT_ATTR_RDONLY = 0x1
MS_PRIVATE = 1 << 18
MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x2, 0x4, 0x8
SYS_OPEN_TREE, SYS_MOVE_MOUNT, SYS_MOUNT_SETATTR = 428, 429, 442
"""the same numbers on every architecture (new system calls are numbered once for all)"""
OPEN_TREE_CLONE, OPEN_TREE_CLOEXEC = 1, os.O_CLOEXEC
MOVE_MOUNT_F_EMPTY_PATH = 0x4
PROC_SHOWN = tuple(path for path in landlock.GPU_READ if path.startswith("/proc/"))
"""what a worker still finds under ``/proc`` once it is covered: what the CUDA driver reads, none of it about a
process"""


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64), ("propagation", ctypes.c_uint64),
                ("userns_fd", ctypes.c_uint64)]


def _set_attributes(path: str, attributes: int, propagation: int, recursive: int) -> None:
    """``mount_setattr``: set ``attributes`` (``MOUNT_ATTR_*``) and ``propagation`` (``MS_PRIVATE``, or 0 to keep it)
    on the mount at ``path``, and with ``recursive`` (``AT_RECURSIVE``) on every mount below it, at once."""
    attr = _MountAttr(attributes, 0, propagation, 0)
    libc.checked(libc.load().syscall(SYS_MOUNT_SETATTR, AT_FDCWD, path.encode(), recursive, ctypes.byref(attr),
                                     ctypes.sizeof(attr)), f"mount_setattr {path}")


def private_scratch(scratch: Path, solution: bytes, size: int, uid: int | None) -> None:
    """In the calling process (one thread, before its uid changes): a mount namespace of its own with every
    inherited mount read-only, and a ``size``-byte tmpfs over ``scratch`` holding ``solution.py``. A process
    without ``CAP_SYS_ADMIN`` (a warm process's child in bubblewrap's view) makes it in a user namespace of its
    own (:func:`judge.worker.libc.unshare`)."""
    c = libc.load()
    libc.unshare(CLONE_NEWNS)
    _set_attributes("/", MOUNT_ATTR_RDONLY, MS_PRIVATE, AT_RECURSIVE)
    owner = os.getuid() if uid is None else uid
    options = f"size={size},mode=0700,uid={owner},gid={owner}".encode()
    libc.checked(c.mount(b"tmpfs", str(scratch).encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options), "mount")
    target = scratch / "solution.py"
    target.write_bytes(solution)
    target.chmod(0o644)
    os.chdir(scratch)  # the working directory was the directory below the new mount


def hide_proc() -> None:
    """Cover ``/proc`` in the calling process's own mount namespace (made by :func:`private_scratch` or
    :func:`cover_proc`, whose capabilities it still holds) with a read-only tmpfs that shows only :data:`PROC_SHOWN` and the caller's own
    :data:`judge.worker.landlock.OWN_PROC` entries, under its pid in its own PID namespace (``/proc/self`` leads
    there): no other process, and no id of a PID namespace above the worker's own (:mod:`judge.worker.pidns`).
    Landlock's one-thread check keeps a descriptor of the task listing from before
    (:func:`judge.worker.landlock.keep_task_listing`)."""
    landlock.keep_task_listing()
    privileges.last_cap()  # what the lock-down reads of /proc later, read now
    own = f"/proc/{os.getpid()}"
    wanted = {path: path for path in PROC_SHOWN} | {f"/proc/self/{name}": f"{own}/{name}" for name in landlock.OWN_PROC}
    c, shown = libc.load(), {}
    try:
        for source, target in wanted.items():
            fd = c.syscall(SYS_OPEN_TREE, AT_FDCWD, source.encode(), OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC)
            if fd >= 0:
                shown[target] = fd
            elif ctypes.get_errno() != errno.ENOENT:
                libc.checked(-1, f"open_tree {source}")
        libc.checked(c.mount(b"tmpfs", b"/proc", b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, b"size=65536,mode=0555"),
                     "mount /proc")
        for target, fd in shown.items():
            _mount_point(target, stat.S_ISDIR(os.fstat(fd).st_mode))
            libc.checked(c.syscall(SYS_MOVE_MOUNT, fd, b"", AT_FDCWD, target.encode(), MOVE_MOUNT_F_EMPTY_PATH),
                         f"move_mount {target}")
    finally:
        for fd in shown.values():
            os.close(fd)
    os.symlink(os.path.basename(own), "/proc/self")
    _set_attributes("/proc", MOUNT_ATTR_RDONLY, 0, 0)


def cover_proc() -> None:
    """In a fresh worker under L2 (one thread, first thing): ``/proc`` covered as a forked worker's is
    (:func:`hide_proc`), in a mount namespace of its own made in a nested user namespace, private so that nothing
    mounted in it reaches bubblewrap's. Bubblewrap's ``/proc`` is of the worker's own PID namespace, but every
    lookup of a new entry in it (``/proc/self/fd/N``, ``/proc/self/task/TID``) takes an inode number from a
    counter the whole machine shares, which a red team moved in one worker and read back in the next."""
    libc.unshare(CLONE_NEWNS)
    _set_attributes("/", 0, MS_PRIVATE, AT_RECURSIVE)
    hide_proc()


def _mount_point(path: str, directory: bool) -> None:
    """An empty directory or file at ``path`` to mount a copy of ``/proc``'s own over."""
    if directory:
        os.makedirs(path)
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o444))


def works_in_child(scratch: str, uid: int | None = None) -> str | None:
    """Make a worker's private mounts over a new folder ``scratch`` as a forked worker does, in a PID namespace of
    its own with ``/proc`` covered, in a forked child; None when that works, else why not (the probe's question,
    below L2 and in bubblewrap's view)."""
    def confined() -> int:
        private_scratch(Path(scratch), b"", 1 << 20, uid)
        hide_proc()
        return 0

    def worker() -> int:
        libc.unshare(pidns.CLONE_NEWPID)
        return libc.forked(confined)

    os.mkdir(scratch)
    try:
        return libc.reason(libc.forked(worker))
    finally:
        os.rmdir(scratch)
