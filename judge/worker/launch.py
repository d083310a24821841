"""Start a worker, or the warm process that forks workers, under a confinement found beforehand.

Nothing here probes: the caller passes the :class:`judge.worker.confinement.Confinement` that
:func:`judge.worker.probe.confinement` found (a :class:`judge.judging.plan.Plan` holds it), so every worker
of a judgement is started exactly the way the probe's own process was.
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from judge.settings import CGROUPS
from judge.worker import cgroup, footprint, ipc, libc, mounts, privileges, scratch as scratches
from judge.worker.confinement import CGROUP_EXTRA_TASKS, PROCESS_LIMIT, SANDBOX_UID, TMPFS_BYTES, Confinement

FILE_SIZE_LIMIT = 16 << 20
DATA_HEADROOM = 256 << 20
LIFETIME_CPU_S = 600
PYTHON_FLAGS = ("-I", "-B")
"""isolated mode (no ``PYTHON*`` variables, no user site, no script directory on ``sys.path``), and no bytecode
written: ``-I`` ignores ``PYTHONDONTWRITEBYTECODE``, so without ``-B`` a worker that keeps uid 0 would write
``__pycache__`` files into the judge's package"""
PASSED_ENV = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH",
              "ATEN_CPU_CAPABILITY", "MKL_CBWR")
"""the operator's choice of kernels reaches every worker, as it reaches ``judge gen``'s reruns
(:mod:`judge.author.codepaths`)"""
SYSTEM_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


@dataclass
class Started:
    process: subprocess.Popen
    scratch: Path
    group: cgroup.Group | None = None
    """the worker's cgroup, removed with it"""
    watched: tuple[str, ...] = ()
    """where the worker may write, as its own mount namespace names it: the disk quota is measured there"""
    private_fs: int = 0
    """the size of the tmpfs of the worker's own at each watched path (measured by its used blocks); 0: they are
    directories on the judge's file systems (measured by a walk)"""

    def cleanup(self) -> None:
        if self.group is not None:
            self.group.remove()
        shutil.rmtree(self.scratch, ignore_errors=True)


Launch = Callable[[bytes, tuple[int, int], int, int], Started]
"""starts a confined worker on a submission: ``(solution, (request_r, response_w), output_fd, memory_bytes)``, where
``solution`` is the submission's bytes as the judge read and hashed them (no launch reads the file again);
:func:`fresh` (a new interpreter) or :meth:`judge.worker.forkserver.ForkServer.launch` (a fork of a warm one)"""


def environment(scratch: Path) -> dict[str, str]:
    """A worker's whole environment: nothing of the judge's but the few variables libraries need."""
    env = {
        "PATH": "/usr/bin:/bin", "HOME": str(scratch), "TMPDIR": str(scratch),
        "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
        "NVIDIA_TF32_OVERRIDE": "0",  # no NVIDIA library may use TF32 (docs/numerics.md §1)
    }
    env.update({k: os.environ[k] for k in PASSED_ENV if k in os.environ})
    return env


def _limits(memory_bytes: int, uid: int | None, parent: int | None = None, bounding: bool = True,
            group: cgroup.Group | None = None, scratch: Path | None = None,
            solution: bytes = b"", ipc_mode: str = "", hide_proc: bool = False) -> Callable[[], None]:
    """What the child does between fork and exec: its cgroup, its own IPC namespace (``ipc_mode``: see
    :func:`judge.worker.ipc.isolate`), its own mounts (``scratch``, holding ``solution``: see
    :func:`judge.worker.mounts.private_scratch`; after it has made every mount read-only, ``/proc`` too, no user
    namespace could map its ids) with ``/proc`` covered (``hide_proc``, for a worker in a PID namespace of its
    own: :mod:`judge.worker.pidns`), limits, then (``bounding``) an empty capability bounding set, then the uid,
    then death with ``parent`` (default: the process that calls this, i.e. the judge; 0: a parent outside the
    caller's PID namespace, which names it so). Bubblewrap needs its capabilities: it is started with ``bounding``
    False and drops them itself."""
    parent = os.getpid() if parent is None else parent

    def apply() -> None:
        if group is not None:
            group.join(os.getpid())
        ipc.isolate(ipc_mode)  # first: its user namespace (``user`` mode) lets it make the mounts below
        if scratch is not None:
            mounts.private_scratch(scratch, solution, TMPFS_BYTES, uid)
            if hide_proc:
                mounts.hide_proc()
        for limit, value in (
            (resource.RLIMIT_DATA, memory_bytes + DATA_HEADROOM),
            (resource.RLIMIT_FSIZE, FILE_SIZE_LIMIT),
            (resource.RLIMIT_CORE, 0),
            (resource.RLIMIT_NOFILE, 256),
            (resource.RLIMIT_CPU, LIFETIME_CPU_S),
        ):
            resource.setrlimit(limit, (value, value))
        if bounding:
            privileges.drop_bounding()
        if uid is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (PROCESS_LIMIT, PROCESS_LIMIT))
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        libc.die_with_parent()  # after setresuid, which clears it
        if os.getppid() != parent:  # the judge died before the line above took effect
            os._exit(1)

    return apply


def _visible_paths() -> list[str]:
    """What the worker needs to read beyond ``/usr``: the interpreter and the environment (the judge's own files
    are bound one by one: :func:`_package_args`).

    Each is listed as written and as resolved, so symlinks (a venv's ``bin/python``) work inside the view.
    """
    wanted = [sys.base_prefix, sys.prefix, os.path.dirname(sys.executable)]
    found = {os.path.abspath(p) for p in wanted} | {os.path.realpath(p) for p in wanted}
    paths: list[str] = []
    for path in sorted(found, key=lambda p: p.count(os.sep)):
        if not any(path == p or path.startswith(p + os.sep) for p in ["/usr", *paths]):
            paths.append(path)
    return paths


def masked_paths(shown: list[str]) -> list[str]:
    """The problem and solution folders inside the view, each as written and as resolved: an installed judge's
    ``judge_bundle`` lies in the environment that the view shows whole (or under ``/usr``)."""
    from judge.package.problem import bundle, problems_roots, solutions_roots

    folders = [*filter(None, [bundle()]), *problems_roots(), *solutions_roots()]
    found = {os.path.abspath(p) for p in folders} | {os.path.realpath(p) for p in folders}
    inside = sorted(p for p in found if os.path.isdir(p) and any(p.startswith(s + os.sep) for s in shown))
    return [p for p in inside if not any(p.startswith(q + os.sep) for q in inside)]  # a mask hides what is below it


def bwrap_args(bwrap: str, scratch: Path) -> list[str]:
    """bubblewrap's command line for a worker whose scratch directory is ``scratch`` (L2's view)."""
    args = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID),
            "--size", str(TMPFS_BYTES), "--tmpfs", "/tmp",  # first: a tmpfs mounted later would hide binds below it
            "--ro-bind", "/usr", "/usr", "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache",  # for ctypes
            "--dev", "/dev", "--remount-ro", "/dev",  # its tmpfs has no size: nothing may be written there
            "--proc", "/proc"]
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    visible = _visible_paths()
    for path in visible:
        args += ["--ro-bind", path, path]
    for path in masked_paths(["/usr", *SYSTEM_DIRS, *visible]):  # an empty, read-only folder over each
        args += ["--size", "4096", "--tmpfs", path, "--remount-ro", path]
    solution = str(scratch / "solution.py")
    return args + _package_args() + ["--size", str(TMPFS_BYTES), "--tmpfs", str(scratch), "--ro-bind", solution, solution,
                   "--chdir", str(scratch), "--"]


def _package_args() -> list[str]:
    """The judge's package in the view: an empty, read-only folder (over the whole package, where the environment
    shown holds an installed judge) with only the files a worker needs bound into it
    (:mod:`judge.worker.footprint`)."""
    args = ["--size", "1048576", "--tmpfs", footprint.PACKAGE_DIR]
    for path in footprint.files():
        args += ["--ro-bind", path, path]
    return args + ["--remount-ro", footprint.PACKAGE_DIR]


def _command(confinement: Confinement, scratch: Path, argv: list[str]) -> list[str]:
    if confinement.bwrap:
        return bwrap_args(confinement.bwrap, scratch) + argv
    return argv


def worker_group(confinement: Confinement, memory_bytes: int) -> cgroup.Group | None:
    """A fresh cgroup for one worker, where the confinement has them."""
    return cgroup.create(memory_bytes, PROCESS_LIMIT + CGROUP_EXTRA_TASKS) if confinement.cgroup else None


def popen(confinement: Confinement, scratch: Path, argv: list[str], memory_bytes: int,
          group: cgroup.Group | None = None, solution: bytes = b"", **streams: object) -> subprocess.Popen:
    """Run ``argv`` in ``scratch`` (holding ``solution``) as a worker is run: the view, the limits, the uid, the
    environment."""
    uid = None if confinement.bwrap else confinement.uid  # bubblewrap changes the uid itself, in its namespace
    preexec = _limits(memory_bytes, uid, bounding=not confinement.bwrap, group=group,
                      scratch=scratch if confinement.private_mounts and not confinement.bwrap else None,
                      solution=solution, ipc_mode="" if confinement.bwrap else confinement.ipc)  # bubblewrap: its own
    return subprocess.Popen(_command(confinement, scratch, argv), cwd=scratch, env=environment(scratch),
                            start_new_session=True, preexec_fn=preexec, **streams)


@functools.cache
def protect_judge() -> None:
    """Make this process (the judge) non-dumpable, and remove what killed judges left behind; once, before the
    first worker starts. Non-dumpable: a worker of the same uid cannot open ``/proc/<judge>/mem``, ``environ``
    or ``fd`` without ``CAP_SYS_PTRACE``, which no worker has."""
    privileges.set_dumpable(False)
    scratches.remove_leftovers()
    if not CGROUPS.off():
        cgroup.remove_leftovers(scratches.running)


def start(solution: bytes, fds: tuple[int, int], output_fd: int, memory_bytes: int,
          confinement: Confinement) -> Started:
    """Write the submission's bytes into a fresh scratch directory and start a worker on them under ``confinement``.

    ``fds`` are the worker's ends of the request and response pipes; ``output_fd`` receives its stdout and stderr.
    """
    protect_judge()
    scratch = scratches.make_scratch(solution, confinement)
    argv = [sys.executable, *PYTHON_FLAGS, "-m", "judge.worker.main", str(fds[0]), str(fds[1]),
            str(scratch / "solution.py"), *confinement.lockdown.argv()]
    group = worker_group(confinement, memory_bytes)
    try:
        process = popen(confinement, scratch, argv, memory_bytes, group, solution, stdin=subprocess.DEVNULL,
                        stdout=output_fd, stderr=output_fd, pass_fds=fds)
    except BaseException:
        if group is not None:
            group.remove()
        raise
    return Started(process, scratch, group, *confinement.watched(str(scratch)))


def fresh(confinement: Confinement) -> Launch:
    """A :data:`Launch` that starts each worker as a fresh interpreter under ``confinement``."""
    return functools.partial(start, confinement=confinement)


def start_zygote(control_fd: int, confinement: Confinement) -> Started:
    """Start the warm process that forks workers (:mod:`judge.worker.zygote`).

    No submission code runs in it, so it gets the worker's environment, view (under L2), session and death with
    the judge but no resource limits; every worker it forks confines itself with :func:`confine_forked_worker`.
    Under L2 it starts in the bubblewrap view a fresh worker gets, so every worker it forks is in it too.
    Its scratch directory holds one fresh directory per worker, which the zygote removes when the worker ends.
    """
    protect_judge()
    scratch = scratches.make_scratch(b"", confinement, "zygote")
    if confinement.uid is not None and not confinement.bwrap:
        scratch.chmod(0o711)  # the worker's uid may pass through to its own directory, and write nothing here
    argv = [sys.executable, *PYTHON_FLAGS, "-m", "judge.worker.zygote", str(control_fd), *confinement.lockdown.argv()]
    process = subprocess.Popen(
        _command(confinement, scratch, argv), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        pass_fds=(control_fd,), cwd=scratch, env=environment(scratch), start_new_session=True,
        preexec_fn=libc.die_with_parent,
    )
    return Started(process, scratch)


def confine_forked_worker(scratch: Path, memory_bytes: int, output_fd: int, keep_fds: tuple[int, ...],
                          parent: int, uid: int | None, private_mounts: bool = False, solution: bytes = b"",
                          ipc_mode: str = "") -> None:
    """Confine a worker just forked from the zygote, before any submission code runs in it.

    As :func:`start` does for a fresh worker below L2: a new session, stdin from ``/dev/null``, stdout and stderr
    to ``output_fd``, no open descriptor but ``keep_fds`` (the zygote's control socket above all), the IPC
    namespace of its own (``ipc_mode``: never the zygote's, which every worker it forks would share), its own
    mounts (``private_mounts``: then it is pid 1 of a PID namespace of its own, :mod:`judge.worker.pidns`, and
    ``/proc`` is covered), the limits, the uid and the death with ``parent`` of ``_limits``, the scratch directory
    as working directory and the worker environment (the zygote was started with it, so the interpreter's own
    additions, such as ``LC_CTYPE``, are kept too). It is made dumpable again (the zygote is not), so the judge
    can reset its peak memory. Capabilities, Landlock and the seccomp filter come last, from
    :func:`judge.worker.main.serve`, as in a fresh worker.
    """
    os.setsid()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    for fd in {int(name) for name in os.listdir("/proc/self/fd")} - {0, 1, 2, *keep_fds}:  # before /proc is covered
        try:
            os.close(fd)
        except OSError:  # the listing's own descriptor, already closed
            pass
    _limits(memory_bytes, uid, 0 if private_mounts else parent, scratch=scratch if private_mounts else None,
            solution=solution, ipc_mode=ipc_mode, hide_proc=private_mounts)()
    privileges.set_dumpable(True)
    os.chdir(scratch)
    os.environ.update(environment(scratch))  # the zygote's own environment is a worker's: only paths change
    tempfile.tempdir = None  # tempfile follows the new TMPDIR
