"""Landlock: the worker takes away its own access to every file but what the interpreter needs and its scratch.

A worker, fresh or forked, calls :func:`restrict` after its own set-up and before the submission is imported
(:func:`judge.worker.main.serve`). From then on it, and every thread it starts, can:

* read (files and directory listings) only the paths of :func:`readable`: the directories on its ``sys.path``
  (the standard library, site-packages with torch and numpy), the directories of the shared libraries it has
  mapped, the system library directories, ``/etc/ld.so.cache``, its own memory map, memory, descriptors and limits in
  ``/proc`` (:data:`OWN_PROC`), and ``/dev/null``,
  ``/dev/zero``, ``/dev/urandom`` and the like; of the judge's own package only the files a worker needs
  (:mod:`judge.worker.footprint`), and the listings of its directories, which the import system reads;
* write only inside its own scratch directory (and to ``/dev/null``);
* execute nothing, connect or bind no TCP port, and, where the ABI has it (6 and later), send no signal and
  reach no abstract Unix socket outside its own Landlock domain: not the judge, not a zygote, not another
  worker (each worker is a domain of its own).

Landlock restricts root too: it is not bypassed by capabilities, so it holds where the uid cannot be changed.
It cannot exclude a folder below an allowed one, so :func:`readable` never allows an ancestor of a denied path:
a directory that contains one is split into its entries, recursively (an installed judge keeps the bundled
problems in ``site-packages/judge_bundle``, beside torch). :func:`check` verifies the result, and
:func:`restrict` refuses to load rules that fail it.

Why a small ctypes binding rather than PyPI's ``landlock`` package: the kernel interface is three system calls
and two structures, stable and documented in ``linux/landlock.h``; the package wraps the same calls, adds a
dependency to the trust path of every worker, and at the time of writing handles ABI 1 to 4 only (no scoping of
signals or abstract sockets). As for :mod:`judge.worker.seccomp`, a page of code here is easier to review.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import sys
from dataclasses import dataclass, field
from typing import Iterable

from judge.worker import footprint, libc

SYSCALLS = {"x86_64": (444, 445, 446), "aarch64": (444, 445, 446)}
"""``landlock_create_ruleset``, ``landlock_add_rule``, ``landlock_restrict_self`` (the generic numbers)"""
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38
O_PATH = getattr(os, "O_PATH", 0o10000000)

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1, 5: (1 << 16) - 1}
"""every file-system right the kernel knows, by ABI version (5 and later: all sixteen)"""
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
"""the only rights a rule on a file (not a directory) may carry"""
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1

READ = READ_FILE | READ_DIR
WRITE = (READ | WRITE_FILE | TRUNCATE | REMOVE_DIR | REMOVE_FILE | MAKE_DIR | MAKE_REG | MAKE_SYM | MAKE_FIFO
         | MAKE_SOCK | REFER)
DEVICES_READ = ("/dev/zero", "/dev/random", "/dev/urandom")
DEVICES_WRITE = ("/dev/null", "/dev/full")
SYSTEM_READ = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib", "/etc/ld.so.cache", "/etc/localtime")
OWN_PROC = ("maps", "mem", "limits")
"""the files of its own ``/proc`` entry a worker may read: its memory map and memory, which it could read through
``ctypes`` anyway, and its limits. Not ``fd``: each new entry's inode number comes from the machine-wide counter
that numbers pipes, so a worker that looked up, closed and looked up again a descriptor moved it for the next
worker to read back by ``lstat`` (tests/adversarial/135, 136). Not the rest: ``pagemap``, ``smaps``, ``numa_maps``,
``stat``, ``status``, ``io`` and its tasks' say which pages of a file it has mapped or faulted in, and so which the
page cache held before it (an attack read another student's answers back through fault-around and ``pagemap``)"""
GPU_PREFIX = "/dev/nvidia"
GPU_READ = ("/sys", "/proc/driver/nvidia", "/proc/cpuinfo", "/proc/meminfo", "/proc/devices", "/proc/modules")
"""what the CUDA driver reads when a worker first uses the GPU (after the lock-down; untested without a GPU)"""


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _syscall(index: int, *args: object) -> int:
    numbers = SYSCALLS.get(platform.machine())
    if numbers is None:
        raise OSError(errno.ENOSYS, f"landlock: unknown system call numbers on {platform.machine()}")
    c = libc.load()
    c.syscall.restype = ctypes.c_long
    result = c.syscall(ctypes.c_long(numbers[index]), *args)
    if result < 0:
        code = ctypes.get_errno()
        raise OSError(code, f"landlock: {os.strerror(code)}")
    return result


def abi() -> int:
    """The Landlock ABI version of the running kernel; 0 when it has none or Landlock is disabled."""
    try:
        return _syscall(0, None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION))
    except OSError:
        return 0


def _real(path: str) -> str:
    return os.path.realpath(path)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


@dataclass
class Rules:
    """Paths the worker keeps, by access; everything else is denied."""

    read: list[str] = field(default_factory=list)
    write: list[str] = field(default_factory=list)
    devices: list[str] = field(default_factory=list)
    """device files the worker may also write and ``ioctl`` (``/dev/null``, a GPU's nodes)"""
    listed: list[str] = field(default_factory=list)
    """directories (and those below them) the worker may list but not read a file of: the judge's package, whose
    files it may read only where :attr:`read` names them"""

    def allowed(self) -> list[str]:
        return [*self.read, *self.write, *self.devices, *self.listed]


@dataclass(frozen=True)
class Secrets:
    """What a worker must never reach. ``kept``: folders no allowed path may be inside of or an ancestor of
    (problems, solutions, history, cache); ``around``: folders no allowed path may be an ancestor of, though
    allowed paths may lie inside them (the home directory, where a pyenv or a virtual environment lives; the
    temporary folder, where every worker's scratch directory lives)."""

    kept: tuple[str, ...] = ()
    around: tuple[str, ...] = ()

    def resolved(self) -> Secrets:
        return Secrets(tuple(sorted({_real(p) for p in self.kept})), tuple(sorted({_real(p) for p in self.around})))


def check(rules: Rules, secrets: Secrets) -> list[str]:
    """Every way ``rules`` would expose a secret: an allowed path that is an ancestor of or inside a kept folder,
    or an ancestor of an ``around`` folder (empty when none)."""
    found = []
    for allowed in (_real(p) for p in rules.allowed()):
        for kept in secrets.kept:
            if _inside(kept, allowed) or _inside(allowed, kept):
                found.append(f"{allowed} overlaps {kept}")
        for around in secrets.around:
            if _inside(around, allowed):
                found.append(f"{allowed} contains {around}")
    return found


def _split(path: str, secrets: Secrets, out: list[str]) -> None:
    """Add ``path`` to ``out`` whole when that exposes no secret, else each of its entries that does not."""
    if not os.path.exists(path) or any(_inside(path, kept) for kept in secrets.kept):
        return
    if not any(_inside(s, path) for s in (*secrets.kept, *secrets.around)):
        out.append(path)
        return
    if not os.path.isdir(path) or os.path.islink(path):
        return
    try:
        entries = sorted(os.listdir(path))
    except OSError:
        return
    for name in entries:
        _split(os.path.join(path, name), secrets, out)


def _mapped_directories() -> set[str]:
    """The directories of every file this process has mapped: its interpreter and shared libraries."""
    found = set()
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                parts = line.split(maxsplit=5)
                if len(parts) == 6 and parts[5].startswith("/"):
                    found.add(os.path.dirname(parts[5].rstrip("\n").removesuffix(" (deleted)")))
    except OSError:
        pass
    return found


def _wanted(packages: Iterable[str]) -> set[str]:
    """What the interpreter reads: ``sys.path``, the packages named, mapped libraries, system libraries."""
    wanted = {p for p in sys.path if p and os.path.isdir(p)}
    for name in packages:
        module = sys.modules.get(name)
        if module is not None and getattr(module, "__file__", None):
            wanted.add(os.path.dirname(module.__file__))
    return {_real(p) for p in wanted | _mapped_directories() | set(SYSTEM_READ)}


def allowed(wanted: Iterable[str], secrets: Secrets) -> list[str]:
    """``wanted``, less what lies inside another wanted path, with every path that would expose a secret split
    into its entries (:func:`_split`); ``secrets`` resolved."""
    out: list[str] = []
    for path in sorted({_real(p) for p in wanted}, key=lambda p: (p.count(os.sep), p)):
        if not any(_inside(path, p) for p in out):
            _split(path, secrets, out)
    return out


def readable(secrets: Secrets, packages: Iterable[str] = ("torch", "numpy")) -> list[str]:
    """The read-only paths of every worker of this interpreter, none exposing a secret: those of :func:`_wanted`,
    split around the judge's package (an installed judge lies in site-packages), and the package's files a worker
    needs, one by one."""
    resolved = secrets.resolved()
    around_package = Secrets((*resolved.kept, _real(footprint.PACKAGE_DIR)), resolved.around)
    return allowed(_wanted(packages), around_package) + footprint.files()


def rules(read: list[str], scratch: str, device: str = "cpu") -> Rules:
    """The rules of one worker: ``read`` (from :func:`readable`), its scratch directory, the devices, and of its
    own ``/proc`` entry only :data:`OWN_PROC`."""
    devices, extra = list(DEVICES_WRITE), [*DEVICES_READ, *(f"/proc/{os.getpid()}/{name}" for name in OWN_PROC)]
    if device == "cuda":
        devices += sorted(f"/dev/{n}" for n in os.listdir("/dev") if f"/dev/{n}".startswith(GPU_PREFIX))
        extra += GPU_READ
    extra = [p for p in extra if os.path.exists(p)]
    return Rules(read=[*read, *extra], write=[_real(scratch)], devices=[d for d in devices if os.path.exists(d)],
                 listed=footprint.directories())


def _handled(version: int) -> _RulesetAttr:
    return _RulesetAttr(handled_access_fs=FS_BY_ABI[min(version, 5)],
                        handled_access_net=NET_BIND_TCP | NET_CONNECT_TCP if version >= 4 else 0,
                        scoped=SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if version >= 6 else 0)


def _attr_size(version: int) -> int:
    """The part of ``struct landlock_ruleset_attr`` this ABI knows: fs; + net (4); + scoped (6)."""
    return 24 if version >= 6 else 16 if version >= 4 else 8


def _add(ruleset: int, path: str, access: int, handled: int) -> None:
    try:
        fd = os.open(path, O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # nothing there to allow
    try:
        if not os.path.isdir(path):
            access &= FILE_RIGHTS
        rule = _PathBeneathAttr(access & handled, fd)
        _syscall(1, ctypes.c_int(ruleset), ctypes.c_int(RULE_PATH_BENEATH), ctypes.byref(rule), ctypes.c_uint32(0))
    finally:
        os.close(fd)


_task_listing: int | None = None
"""a descriptor of this process's task listing, kept from before ``/proc`` was covered (:func:`keep_task_listing`)"""


def keep_task_listing() -> None:
    """Keep a descriptor of this process's task listing for :func:`restrict`'s one-thread check, before a worker
    covers ``/proc`` (:func:`judge.worker.mounts.hide_proc`). It names the process's ids in the PID
    namespaces above its own, so :func:`forget_task_listing` closes it before the submission is imported."""
    global _task_listing
    forget_task_listing()
    _task_listing = os.open("/proc/self/task", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)


def forget_task_listing() -> None:
    global _task_listing
    if _task_listing is not None:
        os.close(_task_listing)
        _task_listing = None


def _threads() -> int:
    return len(os.listdir("/proc/self/task" if _task_listing is None else _task_listing))


def restrict(worker_rules: Rules, secrets: Secrets, version: int | None = None) -> int:
    """Restrict this thread, and every thread and process it starts from now on, to ``worker_rules``.

    Call it with one thread (the rules bind the calling thread only). Sets ``no_new_privs``, which Landlock needs
    without ``CAP_SYS_ADMIN``. Raises ``OSError`` when the kernel has no Landlock, when another thread runs, or
    when the rules would expose a secret (:func:`check`). Returns the ABI version used.
    """
    version = abi() if version is None else version
    if version < 1:
        raise OSError(errno.EOPNOTSUPP, "landlock: not supported by this kernel")
    threads = _threads()
    if threads != 1:
        raise OSError(errno.EBUSY, f"landlock: {threads} threads run; the rules would bind one of them")
    problems = check(worker_rules, secrets.resolved())
    if problems:
        raise OSError(errno.EACCES, f"landlock: the rules would expose {problems[0]}")
    handled = _handled(version)
    ruleset = _syscall(0, ctypes.byref(handled), ctypes.c_size_t(_attr_size(version)), ctypes.c_uint32(0))
    try:
        fs = handled.handled_access_fs
        for path in worker_rules.read:
            _add(ruleset, path, READ, fs)
        for path in worker_rules.write:
            _add(ruleset, path, WRITE, fs)
        for path in worker_rules.devices:
            _add(ruleset, path, READ_FILE | WRITE_FILE | TRUNCATE | IOCTL_DEV, fs)
        for path in worker_rules.listed:
            _add(ruleset, path, READ_DIR, fs)
        if libc.load().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "landlock: cannot set no_new_privs")
        _syscall(2, ctypes.c_int(ruleset), ctypes.c_uint32(0))
    finally:
        os.close(ruleset)
    return version
