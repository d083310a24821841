"""Start a worker process confined as tightly as this machine allows, and say how tightly.

Layers, each on top of the one before (the README's "Security levels" lists what each guarantees):

L0, always
    resource limits, an environment with nothing of the judge's in it, an empty scratch directory as the working
    directory, ``python -I -B``, a new process session, death when the judge dies, stdin from ``/dev/null``; and when
    the judge runs as root, the unprivileged uid ``SANDBOX_UID``, provided that uid can run the interpreter
    (a Python under ``/root``, e.g. pyenv's, it cannot: the report then says the worker kept uid 0).
L1
    the seccomp filter of :mod:`judge.worker.seccomp`, which the worker installs on itself before it imports the
    submission (the worker is told to by its ``--seccomp`` argument).
L2
    bubblewrap: no network, its own PID, IPC, UTS, cgroup and user namespaces (uid ``SANDBOX_UID`` inside), and a
    read-only view of only ``/usr``, the interpreter, the virtual environment and the judge's package, with a
    small private ``/tmp`` and scratch directory; it dies with the judge. Problem folders, case files, the
    reference solution and other submissions are not in that view at all (an empty folder covers those that lie
    inside it, such as an installed judge's ``judge_bundle``).

At the first use in a judge process, :func:`confinement` probes the layers strongest first, by starting a tiny
process exactly the way a worker would be started (same view, same limits, the filter installed and a fork
refused), and caches the strongest that works. ``JUDGE_MAX_LEVEL`` (``L0``, ``L1`` or ``L2``) caps it, for
testing the weaker layers on a machine that has the stronger ones.
"""

from __future__ import annotations

import ctypes
import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import judge
from judge import messages
from judge.errors import BadInput

PR_SET_PDEATHSIG = 1
FILE_SIZE_LIMIT = 16 << 20
DATA_HEADROOM = 256 << 20
LIFETIME_CPU_S = 600
PROCESS_LIMIT = 256
"""``RLIMIT_NPROC`` for the sandbox uid (it counts threads too); the kernel ignores it for root"""
TMPFS_BYTES = 64 << 20
"""size of each private tmpfs under L2 (``/tmp`` and the scratch directory): the disk a submission can fill"""
SANDBOX_UID = 65534
PYTHON_FLAGS = ("-I", "-B")
"""isolated mode (no ``PYTHON*`` variables, no user site, no script directory on ``sys.path``), and no bytecode
written: ``-I`` ignores ``PYTHONDONTWRITEBYTECODE``, so without ``-B`` a worker that keeps uid 0 would write
``__pycache__`` files into the judge's package"""
LEVELS = ("L0", "L1", "L2")
PROBE_TIMEOUT_S = 60
PASSED_ENV = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH")
SYSTEM_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
PROBE = """
import importlib.util, os, sys, threading
for name in ("torch", "judge.worker.main"):
    if importlib.util.find_spec(name) is None:
        sys.exit(f"cannot find {name}")
if "--seccomp" in sys.argv:
    from judge.worker import seccomp
    seccomp.install()
    try:
        if os.fork() == 0:
            os._exit(0)
        sys.exit("the filter let a fork through")
    except PermissionError:
        pass
    thread = threading.Thread(target=lambda: None)
    thread.start()
    thread.join()
print("ok")
"""


@dataclass(frozen=True)
class Confinement:
    """The layers a worker is started with."""

    level: str
    """``L0``, ``L1`` or ``L2``"""
    uid: int | None
    """the uid the worker's code runs as (inside the namespace under L2); None: the judge's own"""
    bwrap: str | None = None
    """the bubblewrap executable, under L2"""
    missing: tuple[str, ...] = ()
    """why each stronger layer or the uid change is not in force, for the report"""

    @property
    def seccomp(self) -> bool:
        return self.level in ("L1", "L2")

    def describe(self) -> str:
        layers = {"L0": "limits", "L1": "limits, seccomp", "L2": "limits, seccomp, bubblewrap"}[self.level]
        who = f"uid {self.uid}" if self.uid is not None else f"uid {os.geteuid()}"
        return messages.say("security_level", level=self.level, layers=layers, who=who,
                            missing="".join(f"; {m}" for m in self.missing))


@dataclass
class Started:
    process: subprocess.Popen
    scratch: Path

    def cleanup(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)


def _environment(scratch: Path) -> dict[str, str]:
    env = {
        "PATH": "/usr/bin:/bin", "HOME": str(scratch), "TMPDIR": str(scratch),
        "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
        "NVIDIA_TF32_OVERRIDE": "0",  # no NVIDIA library may use TF32 (numerics.md §1.2)
    }
    env.update({k: os.environ[k] for k in PASSED_ENV if k in os.environ})
    return env


def _limits(memory_bytes: int, uid: int | None, parent: int | None = None) -> Callable[[], None]:
    """What the child does between fork and exec: limits, then the uid, then death with ``parent`` (default: the
    process that calls this, i.e. the judge)."""
    parent = os.getpid() if parent is None else parent

    def apply() -> None:
        for limit, value in (
            (resource.RLIMIT_DATA, memory_bytes + DATA_HEADROOM),
            (resource.RLIMIT_FSIZE, FILE_SIZE_LIMIT),
            (resource.RLIMIT_CORE, 0),
            (resource.RLIMIT_NOFILE, 256),
            (resource.RLIMIT_CPU, LIFETIME_CPU_S),
        ):
            resource.setrlimit(limit, (value, value))
        if uid is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (PROCESS_LIMIT, PROCESS_LIMIT))
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # after setresuid, which clears it
        if os.getppid() != parent:  # the judge died before the line above took effect
            os._exit(1)

    return apply


def _visible_paths() -> list[str]:
    """What the worker needs to read beyond ``/usr``: the interpreter, the environment and the judge's package.

    Each is listed as written and as resolved, so symlinks (a venv's ``bin/python``) work inside the view.
    """
    wanted = [sys.base_prefix, sys.prefix, os.path.dirname(sys.executable), os.path.dirname(judge.__file__)]
    found = {os.path.abspath(p) for p in wanted} | {os.path.realpath(p) for p in wanted}
    paths: list[str] = []
    for path in sorted(found, key=lambda p: p.count(os.sep)):
        if not any(path == p or path.startswith(p + os.sep) for p in ["/usr", *paths]):
            paths.append(path)
    return paths


def _masked_paths(shown: list[str]) -> list[str]:
    """The problem and solution folders inside the view, each as written and as resolved: an installed judge's
    ``judge_bundle`` lies in the environment that the view shows whole (or under ``/usr``)."""
    from judge.package.problem import bundle, problems_roots, solutions_roots

    folders = [*filter(None, [bundle()]), *problems_roots(), *solutions_roots()]
    found = {os.path.abspath(p) for p in folders} | {os.path.realpath(p) for p in folders}
    inside = sorted(p for p in found if os.path.isdir(p) and any(p.startswith(s + os.sep) for s in shown))
    return [p for p in inside if not any(p.startswith(q + os.sep) for q in inside)]  # a mask hides what is below it


def _bwrap_args(bwrap: str, scratch: Path) -> list[str]:
    args = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID),
            "--size", str(TMPFS_BYTES), "--tmpfs", "/tmp",  # first: a tmpfs mounted later would hide binds below it
            "--ro-bind", "/usr", "/usr", "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache",  # for ctypes
            "--dev", "/dev", "--proc", "/proc"]
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    visible = _visible_paths()
    for path in visible:
        args += ["--ro-bind", path, path]
    for path in _masked_paths(["/usr", *SYSTEM_DIRS, *visible]):  # an empty, read-only folder over each
        args += ["--size", "4096", "--tmpfs", path, "--remount-ro", path]
    solution = str(scratch / "solution.py")
    return args + ["--size", str(TMPFS_BYTES), "--tmpfs", str(scratch), "--ro-bind", solution, solution,
                   "--chdir", str(scratch), "--"]


def _command(confinement: Confinement, scratch: Path, argv: list[str]) -> list[str]:
    if confinement.bwrap:
        return _bwrap_args(confinement.bwrap, scratch) + argv
    return argv


def make_scratch(submission: Path | None, confinement: Confinement) -> Path:
    """A fresh directory holding only ``solution.py``; outside L2 it is the worker's own, writable directory."""
    scratch = Path(tempfile.mkdtemp(prefix="judge-worker-"))
    target = scratch / "solution.py"
    if submission is None:
        target.touch()
    else:
        shutil.copyfile(submission, target)
    target.chmod(0o644)
    if confinement.uid is not None and not confinement.bwrap:
        os.chown(scratch, confinement.uid, confinement.uid)
    return scratch


def _popen(confinement: Confinement, scratch: Path, argv: list[str], memory_bytes: int,
           **streams: object) -> subprocess.Popen:
    uid = None if confinement.bwrap else confinement.uid  # bubblewrap changes the uid itself, in its namespace
    return subprocess.Popen(_command(confinement, scratch, argv), cwd=scratch, env=_environment(scratch),
                            start_new_session=True, preexec_fn=_limits(memory_bytes, uid), **streams)


def _try(confinement: Confinement) -> str | None:
    """Start a probe exactly as a worker would be started; None when it works, else why it does not."""
    scratch = make_scratch(None, confinement)
    argv = [sys.executable, *PYTHON_FLAGS, "-c", PROBE] + (["--seccomp"] if confinement.seccomp else [])
    try:
        probe = _popen(confinement, scratch, argv, 1 << 30, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
        out, _ = probe.communicate(timeout=PROBE_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{type(exc).__name__}: {exc}"
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    text = out.decode("utf-8", "replace").strip()
    if probe.returncode == 0 and text.endswith("ok"):
        return None
    return text.splitlines()[-1][:200] if text else f"exit status {probe.returncode}"


@functools.cache
def _probe(cap: str, capped_because: str) -> Confinement:
    """The strongest confinement up to ``cap`` that starts here; ``capped_because`` says why the cap, if any."""
    missing: list[str] = []
    uid = SANDBOX_UID if os.geteuid() == 0 else None
    bwrap = shutil.which("bwrap")
    if cap != "L2":
        missing.append(messages.say("layer_off", layer="bubblewrap", reason=capped_because))
    elif bwrap is None:
        missing.append(messages.say("layer_off", layer="bubblewrap", reason=messages.say("no_bwrap")))
    else:
        strongest = Confinement("L2", SANDBOX_UID, bwrap)
        failure = _try(strongest)
        if failure is None:
            return strongest
        missing.append(messages.say("layer_off", layer="bubblewrap", reason=failure))
    for level in ("L1", "L0"):
        if level == "L1" and cap == "L0":
            missing.append(messages.say("layer_off", layer="seccomp", reason=capped_because))
            continue
        for candidate_uid in ([uid, None] if uid is not None else [None]):
            candidate = Confinement(level, candidate_uid)
            failure = _try(candidate)
            if failure is None:
                return Confinement(level, candidate_uid, missing=tuple(missing))
            layer = "seccomp" if candidate_uid is None else f"uid {candidate_uid}"
            missing.append(messages.say("layer_off", layer=layer, reason=failure))
    return Confinement("L0", None, missing=tuple(missing))


def confinement(device: str = "cpu") -> Confinement:
    """The strongest layers that work here, probed once per process.

    A GPU worker stops at L1: bubblewrap's minimal view has no GPU device nodes or driver files in it.
    """
    cap = os.environ.get("JUDGE_MAX_LEVEL", "L2")
    if cap not in LEVELS:
        raise BadInput("bad_max_level", value=cap, levels=", ".join(LEVELS))
    if device == "cuda" and cap == "L2":
        return _probe("L1", messages.say("no_gpu_in_bwrap"))
    return _probe(cap, messages.say("level_capped", cap=cap))


def level(device: str = "cpu") -> str:
    """The confinement in force, as every report prints it."""
    return confinement(device).describe()


def start(submission: Path, fds: tuple[int, int], output_fd: int, memory_bytes: int, device: str = "cpu") -> Started:
    """Copy the submission into a fresh scratch directory and start a worker on it, as confined as possible.

    ``fds`` are the worker's ends of the request and response pipes; ``output_fd`` receives its stdout and stderr.
    """
    confined = confinement(device)
    scratch = make_scratch(submission, confined)
    argv = [sys.executable, *PYTHON_FLAGS, "-m", "judge.worker.main", str(fds[0]), str(fds[1]),
            str(scratch / "solution.py")]
    if confined.seccomp:
        argv.append("--seccomp")
    process = _popen(confined, scratch, argv, memory_bytes, stdin=subprocess.DEVNULL, stdout=output_fd,
                     stderr=output_fd, pass_fds=fds)
    return Started(process, scratch)


def warm_confinement(device: str = "cpu") -> Confinement:
    """The layers of a worker forked from a warm process (``judge grade``): at most L1.

    A fork happens inside the warm process, so the worker cannot get namespaces of its own; it gets the limits,
    the uid change and the seccomp filter of a fresh worker.
    """
    full = confinement(device)
    if full.level != "L2":
        return full
    return _probe("L1", messages.say("no_bwrap_warm"))


def start_zygote(control_fd: int, device: str = "cpu") -> Started:
    """Start the warm process that forks workers (:mod:`judge.worker.zygote`).

    No submission code runs in it, so it gets the worker's environment, session and death with the judge but
    no resource limits; every worker it forks confines itself with :func:`confine_forked_worker`.
    """
    warm_confinement(device)  # probe now, in the judge, not in the first forked worker
    scratch = Path(tempfile.mkdtemp(prefix="judge-zygote-"))
    argv = [sys.executable, *PYTHON_FLAGS, "-m", "judge.worker.zygote", str(control_fd)]
    process = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, pass_fds=(control_fd,),
        cwd=scratch, env=_environment(scratch), start_new_session=True, preexec_fn=_die_with_parent,
    )
    return Started(process, scratch)


def _die_with_parent() -> None:
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def confine_forked_worker(scratch: Path, memory_bytes: int, output_fd: int, keep_fds: tuple[int, ...],
                          parent: int, uid: int | None) -> None:
    """Confine a worker just forked from the zygote, before any submission code runs in it.

    As :func:`start` does for a fresh worker below L2: a new session, the limits, the uid and the death with
    ``parent`` of ``_limits``, stdin from ``/dev/null``, stdout and stderr to ``output_fd``, no open descriptor
    but ``keep_fds`` (the zygote's control socket above all), the scratch directory as working directory and the
    worker environment (the zygote was started with it, so the interpreter's own additions, such as ``LC_CTYPE``,
    are kept too). The seccomp filter comes last, from :func:`judge.worker.main.serve`, as in a fresh worker.
    """
    os.setsid()
    _limits(memory_bytes, uid, parent)()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    for fd in {int(name) for name in os.listdir("/proc/self/fd")} - {0, 1, 2, *keep_fds}:
        try:
            os.close(fd)
        except OSError:  # the listing's own descriptor, already closed
            pass
    os.chdir(scratch)
    os.environ.update(_environment(scratch))  # the zygote's own environment is a worker's: only paths change
    tempfile.tempdir = None  # tempfile follows the new TMPDIR
