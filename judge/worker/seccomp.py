"""Level L1: a seccomp filter the worker installs on itself after its own set-up, before the submission is imported.

Once loaded, a filter cannot be removed, loosened or escaped by the process or anything it starts (the kernel
also sets ``no_new_privs``). It applies to every thread (``TSYNC``), so threads torch started earlier are
covered too. Everything is allowed except the calls in ``DENIED``, which fail with ``EPERM`` (Python raises
``PermissionError``, a runtime error for the submission):

* new processes and programs: ``fork``, ``vfork``, ``execve``, ``execveat`` and a ``clone`` without
  ``CLONE_THREAD``. Threads are still allowed, since torch needs them, but not with ``CLONE_PIDFD``: a pidfd's
  inode number is the thread's number in a counter of every task the machine ever made (Linux 6.9+), which a
  thread started by a later worker would read back; ``clone3`` answers ``ENOSYS`` because its flags sit in memory
  where a filter cannot read them, and glibc then falls back to ``clone``;
* the network (``socket``, ``socketpair``), and ``io_uring``, whose operations seccomp cannot see;
* touching other processes: ``kill`` and friends, ``ptrace``, ``process_vm_*``, ``pidfd_*``;
* leaving the session or the limits: ``setsid``, ``setpgid``, ``setrlimit``, ``prlimit64``;
* namespaces, mounts, kernel keys, BPF, modules and the other administrator calls;
* System V shared memory, semaphores and message queues, and POSIX message queues (``IPC``): a channel to other
  workers wherever they share an IPC namespace (:mod:`judge.worker.ipc` gives each its own where the kernel
  allows; this closes it where it does not);
* what a worker could leave in, or read from, the kernel's page cache, which every process shares whatever its
  namespaces (``PAGE_CACHE``): ``mincore`` and ``cachestat`` (which pages of a file are cached), ``fadvise64``
  and ``readahead`` (drop or load them at will), ``preadv2``/``pwritev2`` with ``RWF_NOWAIT`` (a read that fails
  on a page not cached), ``madvise`` with ``MADV_COLD``/``MADV_PAGEOUT``, and ``getrusage`` (its major faults
  count the pages a touch read from disk): red teams passed answers between students through which pages of a
  library nobody reads were cached (126 and 127), and read them back by fault counts, ``move_pages``, Linux AIO
  with ``RWF_NOWAIT`` and ``/proc/self/pagemap``, which Landlock keeps from the worker (``tests/test_ipc.py``).
  How long a read takes
  still tells a cached page from one on disk: that timing channel is not closed (docs/security.md);
* what one worker could signal to another running at the same time through a file both may read (``WATCHES``):
  ``flock``, the lock, lease and notify commands of ``fcntl`` (:data:`LOCK_COMMANDS`), and inotify and
  fanotify, which see another process read a file (a red team held a lock on a read-only library file that a
  concurrent process saw, 113 times in 25 s);
* what draws an inode number from a counter every worker on the machine shares (``INODES``): ``pipe`` and
  ``pipe2`` (every pipe, like every socket, takes the next number of one machine-wide counter, handed out in
  blocks of 1024: a red team moved it in one worker and read it back exactly in the next one's, through
  ``fstat`` of a new pipe, whatever their namespaces) and ``memfd_create`` and ``memfd_secret`` (the kernel's
  internal tmpfs numbers its files the same way; their pages no resident set shows either). A worker's own
  pipes come from the judge;
* a mount's unique id (``MOUNT_IDS``, and ``statx`` asking for ``STATX_MNT_ID_UNIQUE``): one machine-wide counter
  numbers every mount ever made, the judge's own for each worker among them, so a writer that made the judge
  start workers again (by ending its own) moved it by a fixed step, and the next student's worker read it back
  exactly. ``name_to_handle_at`` is refused above.

Only the machine's native architecture is allowed: a call through another ABI (``int 0x80``) kills the calling
thread (libseccomp's default for a foreign architecture).

Why a short ctypes binding to the system's ``libseccomp.so.2`` instead of a PyPI package: the judge needs six
functions of a library that Debian installs with the base system (apt depends on it). libseccomp's own Python
binding reaches PyPI only as a third-party upload (``mephi42-seccomp``), and ``pyseccomp`` is a ctypes wrapper of
the same library with no release since January 2021. Sixty lines here are easier to review than a dependency
that would sit in the trust path of every worker.
"""

from __future__ import annotations

import ctypes
import errno
import functools

LIBRARY = "libseccomp.so.2"
ACT_ALLOW = 0x7FFF0000
ACT_ERRNO = 0x00050000
ATTR_TSYNC = 4  # SCMP_FLTATR_CTL_TSYNC in enum scmp_filter_attr
CMP_MASKED_EQ = 7  # SCMP_CMP_MASKED_EQ in enum scmp_compare
CLONE_THREAD, CLONE_PIDFD = 0x00010000, 0x00001000

DENIED = (
    "fork", "vfork", "execve", "execveat",
    "socket", "socketpair", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "ptrace", "process_vm_readv",
    "process_vm_writev", "process_madvise", "pidfd_open", "pidfd_getfd", "pidfd_send_signal", "kcmp",
    "setsid", "setpgid", "setrlimit", "prlimit64",
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "mount_setattr", "move_mount", "open_tree",
    "fsopen", "fsmount", "fspick", "name_to_handle_at", "open_by_handle_at",
    "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key", "personality",
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff",
    "acct", "quotactl", "sethostname", "setdomainname", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "iopl", "ioperm",
)
IPC = (
    "shmget", "shmat", "shmdt", "shmctl", "semget", "semop", "semtimedop", "semtimedop_time64", "semctl",
    "msgget", "msgsnd", "msgrcv", "msgctl", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedsend_time64",
    "mq_timedreceive", "mq_timedreceive_time64", "mq_notify", "mq_getsetattr", "ipc",
)
"""every System V IPC and POSIX message queue call, and the ``ipc`` multiplexer of the architectures that have it
(the ``_time64`` variants exist on 32-bit ones)"""
PAGE_CACHE = ("mincore", "cachestat", "fadvise64", "fadvise64_64", "arm_fadvise64_64", "readahead", "getrusage",
              "move_pages", "migrate_pages", "io_setup", "io_submit", "io_getevents", "io_pgetevents",
              "io_pgetevents_time64", "io_cancel", "io_destroy")
"""calls that read or set which pages of a file the kernel has cached (more in :func:`_deny_page_cache_flags`);
``getrusage``, whose count of major faults says which pages a worker's touches had to read from disk;
``move_pages`` (with no target nodes it says which pages are in the page table: fault-around's mapped neighbours,
as ``pagemap`` would); and the Linux AIO calls, whose requests carry ``RWF_NOWAIT`` in memory the filter cannot
read (an attack read which pages were cached through each of these once the others were refused)"""
WATCHES = ("flock", "inotify_init", "inotify_init1", "fanotify_init")
"""calls that lock a file or watch other processes use it"""
LOCK_COMMANDS = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)
"""``fcntl``'s F_GETLK, F_SETLK, F_SETLKW, their F_OFD_ forms, F_SETLEASE, F_GETLEASE and F_NOTIFY"""
RWF_NOWAIT = 0x00000008
MADV_COLD, MADV_PAGEOUT = 20, 21
CMP_EQ = 4  # SCMP_CMP_EQ in enum scmp_compare


class _ArgCmp(ctypes.Structure):
    """``struct scmp_arg_cmp``: compare syscall argument ``arg`` with ``op`` (``datum_a`` is the mask)."""

    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64),
                ("datum_b", ctypes.c_uint64)]


@functools.cache
def _library() -> ctypes.CDLL:
    """Loaded once: a zygote loads it before forking, so its workers do not pay for it."""
    lib = ctypes.CDLL(LIBRARY, use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    lib.seccomp_attr_set.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
                                           ctypes.POINTER(_ArgCmp)]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    return lib


def warm_up() -> None:
    """Load the library now (in a zygote, before it forks)."""
    _library()


def _check(result: int, what: str) -> None:
    """libseccomp returns ``-errno`` on failure."""
    if result < 0:
        raise OSError(-result, f"seccomp: {what} failed")


INODES = ("pipe", "pipe2", "memfd_create", "memfd_secret")
MOUNT_IDS = ("statmount", "listmount")
STATX_MNT_ID_UNIQUE = 0x4000
BY_NUMBER = {"statmount": 457, "listmount": 458}
"""calls newer than some libseccomp's table (2.5 knows neither), by number: the same on every architecture, as
every call since Linux 5.1 is numbered"""


def install() -> None:
    """Load the filter into this process and all its threads; raises ``OSError`` when it cannot be loaded."""
    lib = _library()
    ctx = lib.seccomp_init(ACT_ALLOW)
    if not ctx:
        raise OSError(errno.ENOMEM, "seccomp: seccomp_init failed")
    try:
        _check(lib.seccomp_attr_set(ctx, ATTR_TSYNC, 1), "TSYNC")
        deny = ACT_ERRNO | errno.EPERM
        for name in DENIED + IPC + PAGE_CACHE + WATCHES + INODES + MOUNT_IDS:
            number = lib.seccomp_syscall_resolve_name(name.encode())
            number = BY_NUMBER.get(name, number) if number < 0 else number
            if number >= 0:  # a call this architecture does not have cannot be made
                _check(lib.seccomp_rule_add_array(ctx, deny, number, 0, None), name)
        clone = lib.seccomp_syscall_resolve_name(b"clone")
        for refused in (_ArgCmp(0, CMP_MASKED_EQ, CLONE_THREAD, 0),  # flags & CLONE_THREAD == 0: a process
                        _ArgCmp(0, CMP_MASKED_EQ, CLONE_PIDFD, CLONE_PIDFD)):  # a thread with a pidfd
            _check(lib.seccomp_rule_add_array(ctx, deny, clone, 1, ctypes.byref(refused)), "clone")
        _check(lib.seccomp_rule_add_array(ctx, ACT_ERRNO | errno.ENOSYS, lib.seccomp_syscall_resolve_name(b"clone3"),
                                          0, None), "clone3")
        _deny_page_cache_flags(lib, ctx, deny)
        _check(lib.seccomp_load(ctx), "load")
    finally:
        lib.seccomp_release(ctx)


def _deny_page_cache_flags(lib: ctypes.CDLL, ctx: int, deny: int) -> None:
    """The channels hidden in the arguments of calls a worker needs otherwise: ``preadv2``/``pwritev2`` with
    ``RWF_NOWAIT`` (their 6th argument), ``fcntl``'s lock commands (its 2nd), ``statx`` asking for a mount's unique
    id (its 4th) and ``madvise`` with ``MADV_COLD`` or ``MADV_PAGEOUT`` (its 3rd)."""
    for name in ("preadv2", "pwritev2"):
        number = lib.seccomp_syscall_resolve_name(name.encode())
        if number >= 0:
            nowait = _ArgCmp(5, CMP_MASKED_EQ, RWF_NOWAIT, RWF_NOWAIT)
            _check(lib.seccomp_rule_add_array(ctx, deny, number, 1, ctypes.byref(nowait)), name)
    for name in ("fcntl", "fcntl64"):
        number = lib.seccomp_syscall_resolve_name(name.encode())
        for command in LOCK_COMMANDS if number >= 0 else ():
            _check(lib.seccomp_rule_add_array(ctx, deny, number, 1, ctypes.byref(_ArgCmp(1, CMP_EQ, command, 0))),
                   name)
    unique_mount_id = _ArgCmp(3, CMP_MASKED_EQ, STATX_MNT_ID_UNIQUE, STATX_MNT_ID_UNIQUE)
    _check(lib.seccomp_rule_add_array(ctx, deny, lib.seccomp_syscall_resolve_name(b"statx"), 1,
                                      ctypes.byref(unique_mount_id)), "statx")
    madvise = lib.seccomp_syscall_resolve_name(b"madvise")
    for advice in (MADV_COLD, MADV_PAGEOUT):
        _check(lib.seccomp_rule_add_array(ctx, deny, madvise, 1, ctypes.byref(_ArgCmp(2, CMP_EQ, advice, 0))),
               "madvise")
