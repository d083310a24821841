"""Start a worker process confined as tightly as this machine allows, and say how tightly.

Levels, each defined by what it guarantees (the README's "Security levels" says it for people):

L0, always: no guarantee about files or processes
    resource limits, an environment with nothing of the judge's in it, an empty scratch directory as the working
    directory, ``python -I -B``, a new process session, death when the judge dies, stdin from ``/dev/null``, no
    capabilities (:mod:`judge.worker.privileges`); and when the judge runs as root, the unprivileged uid
    ``SANDBOX_UID``, provided that uid can run the interpreter (a Python under ``/root``, e.g. pyenv's, it cannot:
    the report then says the worker kept uid 0). The seccomp filter too when it loads but Landlock does not.
L1: hidden data unreadable, the judge and its files unwritable, the judge's process out of reach
    L0, plus Landlock (:mod:`judge.worker.landlock`: read only what the interpreter needs, write only the scratch
    directory, no signal outside its own domain) and the seccomp filter of :mod:`judge.worker.seccomp` (no new
    process, no network, no signal, no tracing), which the worker puts on itself before it imports the submission
    (:func:`judge.worker.main.lock_down`).
L2
    bubblewrap: no network, its own PID, IPC, UTS, cgroup and user namespaces (uid ``SANDBOX_UID`` inside), and a
    read-only view of only ``/usr``, the interpreter, the virtual environment and the judge's package, with a
    small private ``/tmp`` and scratch directory; it dies with the judge. Problem folders, case files, the
    reference solution and other submissions are not in that view at all (an empty folder covers those that lie
    inside it, such as an installed judge's ``judge_bundle``). Landlock too, where the kernel has it.
    ``judge grade``'s zygotes start in that same view, so the workers they fork inherit it.

Only L1 and L2 keep hidden data secret (:attr:`Confinement.keeps_secrets`); ``judge grade`` refuses to grade below
that unless told to (``--allow-weak-sandbox``).

At the first use in a judge process, :func:`confinement` probes the layers strongest first, by starting a tiny
process exactly the way a worker would be started (same view, same limits, the filter installed and a fork
refused), and caches the strongest that works. ``JUDGE_MAX_LEVEL`` (``L0``, ``L1`` or ``L2``) caps it, for
testing the weaker layers on a machine that has the stronger ones.
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import judge
from judge import messages
from judge.errors import BadInput
from judge.places import cache_dir, data_home
from judge.worker import cgroup, landlock, libc, mounts, privileges
from judge.worker.main import Lockdown

PR_SET_PDEATHSIG = 1
FILE_SIZE_LIMIT = 16 << 20
DATA_HEADROOM = 256 << 20
LIFETIME_CPU_S = 600
PROCESS_LIMIT = 256
"""threads and processes of one worker: ``RLIMIT_NPROC`` for the sandbox uid (the kernel ignores it for root),
``pids.max`` of its cgroup, and the parent's count of its tasks at every poll (:mod:`judge.worker.runner`)"""
CGROUP_EXTRA_TASKS = 4
"""bubblewrap's own processes, in the worker's group under L2"""
DISK_QUOTA = 64 << 20
"""what one worker may write, everywhere it can write: the parent ends it above this (:mod:`judge.worker.runner`)"""
TMPFS_BYTES = DISK_QUOTA + (1 << 20)
"""size of each private tmpfs (L2's ``/tmp`` and scratch directory, and the scratch directory below L2 when the
judge runs as root): a little above the quota, so that a worker that reaches the tmpfs's end is seen above it"""
CGROUPS_ENV = "JUDGE_CGROUPS"
"""``off``: no cgroup even where the machine allows them (to test the fallbacks)"""
PRIVATE_MOUNTS_ENV = "JUDGE_PRIVATE_MOUNTS"
"""``off``: no private mounts below L2 even as root (to test what a judge that is not root gives)"""
SANDBOX_UID = 65534
PYTHON_FLAGS = ("-I", "-B")
"""isolated mode (no ``PYTHON*`` variables, no user site, no script directory on ``sys.path``), and no bytecode
written: ``-I`` ignores ``PYTHONDONTWRITEBYTECODE``, so without ``-B`` a worker that keeps uid 0 would write
``__pycache__`` files into the judge's package"""
LEVELS = ("L0", "L1", "L2")
PROBE_TIMEOUT_S = 60
PASSED_ENV = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH")
SYSTEM_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SCRATCH_NAME = re.compile(r"judge-(?:worker|zygote)-(\d+)-")
"""a scratch directory's name carries the pid of the judge that made it, so a later judge can remove the
directories of one that was killed"""
PROBE = """
import importlib.util, os, sys, threading
for name in ("torch", "judge.worker.main"):
    if importlib.util.find_spec(name) is None:
        sys.exit(f"cannot find {name}")
from judge.worker.main import Lockdown, lock_down
lockdown = Lockdown.from_argv(sys.argv[1:])
lock_down(lockdown, os.getcwd())
if lockdown.secrets is not None:
    for secret in lockdown.secrets.kept:
        try:
            os.listdir(secret)
            sys.exit(f"Landlock let {secret} be read")
        except (PermissionError, FileNotFoundError, NotADirectoryError):
            pass
if lockdown.seccomp:
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
    seccomp: bool = False
    landlock: int = 0
    """the Landlock ABI version the workers use; 0: none"""
    cgroup: int = 0
    """the cgroup version each worker gets a group of (1 or 2); 0: none"""
    private_mounts: bool = False
    """below L2, as root: each worker in a mount namespace of its own, everything read-only but a sized tmpfs
    over its scratch directory (:mod:`judge.worker.mounts`)"""

    @property
    def keeps_secrets(self) -> bool:
        """Whether hidden data is out of a worker's reach: Landlock (L1) or bubblewrap's view (L2)."""
        return self.level in ("L1", "L2")

    @property
    def lockdown(self) -> Lockdown:
        """Without a memory cgroup no page of a ``memfd`` would count: the filter refuses ``memfd_create``."""
        return Lockdown(self.seccomp, secrets() if self.landlock else None, memfd=bool(self.cgroup))

    @property
    def disk_bounded(self) -> bool:
        """Whether the disk quota holds everywhere the worker can write (else only in its scratch directory)."""
        return bool(self.bwrap or self.landlock or self.private_mounts)

    def layers(self) -> list[str]:
        return ["limits", *([f"cgroup v{self.cgroup}"] if self.cgroup else []),
                *(["private mounts"] if self.private_mounts else []), "no capabilities",
                *(["seccomp"] if self.seccomp else []),
                *([f"Landlock ABI {self.landlock}"] if self.landlock else []), *(["bubblewrap"] if self.bwrap else [])]

    def describe(self) -> str:
        who = f"uid {self.uid}" if self.uid is not None else f"uid {os.geteuid()}"
        weak = "" if self.keeps_secrets else f"; {messages.say('secrets_exposed')}"
        limits = messages.say("limits_short", memory=f"cgroup v{self.cgroup}" if self.cgroup else "resident set",
                              tasks=PROCESS_LIMIT, disk=DISK_QUOTA >> 20)
        return messages.say("security_level", level=self.level, layers=", ".join(self.layers()), who=who,
                            limits=limits, missing="".join(f"; {m}" for m in self.missing) + weak)


def secrets() -> landlock.Secrets:
    """What no worker may reach: every problem and solution folder, the history, the calibration cache; and
    no ancestor of the home directory or of the temporary folder (every worker's scratch directory is there)."""
    from judge.package.problem import bundle, problems_roots, solutions_roots

    kept = [*filter(None, [bundle()]), *problems_roots(), *solutions_roots(), data_home(), cache_dir()]
    return landlock.Secrets(tuple(str(p) for p in kept), (str(Path.home()), tempfile.gettempdir()))


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


def _environment(scratch: Path) -> dict[str, str]:
    env = {
        "PATH": "/usr/bin:/bin", "HOME": str(scratch), "TMPDIR": str(scratch),
        "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
        "NVIDIA_TF32_OVERRIDE": "0",  # no NVIDIA library may use TF32 (numerics.md §1.2)
    }
    env.update({k: os.environ[k] for k in PASSED_ENV if k in os.environ})
    return env


def _limits(memory_bytes: int, uid: int | None, parent: int | None = None, bounding: bool = True,
            group: cgroup.Group | None = None, scratch: Path | None = None) -> Callable[[], None]:
    """What the child does between fork and exec: its cgroup, its own mounts (``scratch``: see
    :func:`judge.worker.mounts.private_scratch`), limits, then (``bounding``) an empty capability bounding set,
    then the uid, then death with ``parent`` (default: the process that calls this, i.e. the judge). Bubblewrap
    needs its capabilities: it is started with ``bounding`` False and drops them itself."""
    parent = os.getpid() if parent is None else parent
    solution = (scratch / "solution.py").read_bytes() if scratch is not None else b""

    def apply() -> None:
        if group is not None:
            group.join(os.getpid())
        if scratch is not None:
            mounts.private_scratch(scratch, solution, TMPFS_BYTES, uid)
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
        libc.load().prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # after setresuid, which clears it
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
    for path in _masked_paths(["/usr", *SYSTEM_DIRS, *visible]):  # an empty, read-only folder over each
        args += ["--size", "4096", "--tmpfs", path, "--remount-ro", path]
    solution = str(scratch / "solution.py")
    return args + ["--size", str(TMPFS_BYTES), "--tmpfs", str(scratch), "--ro-bind", solution, solution,
                   "--chdir", str(scratch), "--"]


def _command(confinement: Confinement, scratch: Path, argv: list[str]) -> list[str]:
    if confinement.bwrap:
        return _bwrap_args(confinement.bwrap, scratch) + argv
    return argv


def scratch_prefix(kind: str) -> str:
    """``judge-<kind>-<this judge's pid>-``: see :data:`SCRATCH_NAME`."""
    return f"judge-{kind}-{os.getpid()}-"


def remove_leftovers() -> list[str]:
    """Remove the scratch directories that judges no longer running left in the temporary folder (a judge
    killed with SIGKILL cannot remove its own); returns their paths."""
    removed = []
    folder = tempfile.gettempdir()
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        match = SCRATCH_NAME.match(name)
        if match and not _running(int(match.group(1))):
            shutil.rmtree(os.path.join(folder, name), ignore_errors=True)
            removed.append(os.path.join(folder, name))
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def make_scratch(submission: Path | None, confinement: Confinement, kind: str = "worker") -> Path:
    """A fresh directory holding only ``solution.py``; outside L2 it is the worker's own, writable directory."""
    scratch = Path(tempfile.mkdtemp(prefix=scratch_prefix(kind)))
    target = scratch / "solution.py"
    if submission is None:
        target.touch()
    else:
        shutil.copyfile(submission, target)
    target.chmod(0o644)
    if confinement.uid is not None and not confinement.bwrap and kind == "worker":
        os.chown(scratch, confinement.uid, confinement.uid)
    return scratch


def watched(confinement: Confinement, scratch: str) -> tuple[tuple[str, ...], int]:
    """Where a worker whose scratch directory is ``scratch`` may write, and whether each is a tmpfs of its own.

    Under L2: its scratch directory and ``/tmp`` (Landlock, where the kernel has it, leaves only the first).
    Below, the scratch directory: under L1 Landlock allows nothing else; under L0 private mounts make the rest
    read-only, and without them (not root) nothing bounds the other directories its uid may write.
    """
    if confinement.bwrap:
        return (scratch, "/tmp"), TMPFS_BYTES
    return (scratch,), TMPFS_BYTES if confinement.private_mounts else 0


def worker_group(confinement: Confinement, memory_bytes: int) -> cgroup.Group | None:
    """A fresh cgroup for one worker, where the confinement has them."""
    return cgroup.create(memory_bytes, PROCESS_LIMIT + CGROUP_EXTRA_TASKS) if confinement.cgroup else None


def _popen(confinement: Confinement, scratch: Path, argv: list[str], memory_bytes: int,
           group: cgroup.Group | None = None, **streams: object) -> subprocess.Popen:
    uid = None if confinement.bwrap else confinement.uid  # bubblewrap changes the uid itself, in its namespace
    preexec = _limits(memory_bytes, uid, bounding=not confinement.bwrap, group=group,
                      scratch=scratch if confinement.private_mounts else None)
    return subprocess.Popen(_command(confinement, scratch, argv), cwd=scratch, env=_environment(scratch),
                            start_new_session=True, preexec_fn=preexec, **streams)


def _try(confinement: Confinement) -> str | None:
    """Start a probe exactly as a worker would be started; None when it works, else why it does not."""
    scratch = make_scratch(None, confinement)
    argv = [sys.executable, *PYTHON_FLAGS, "-c", PROBE, *confinement.lockdown.argv()]
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


def _first_working(candidates: list[Confinement], missing: list[str]) -> Confinement | None:
    """The first candidate whose probe works; the reasons the others failed are added to ``missing``."""
    for candidate in candidates:
        failure = _try(candidate)
        if failure is None:
            return candidate
        missing.append(messages.say("layer_off", layer=_layer_name(candidate), reason=failure))
    return None


def _layer_name(candidate: Confinement) -> str:
    if candidate.bwrap:
        return "bubblewrap"
    if candidate.uid is not None:
        return f"uid {candidate.uid}"
    return "Landlock" if candidate.landlock else "seccomp"


@functools.cache
def _probe(cap: str, capped_because: str) -> Confinement:
    """The strongest confinement up to ``cap`` that starts here; ``capped_because`` says why the cap, if any."""
    missing: list[str] = []
    uids = [SANDBOX_UID, None] if os.geteuid() == 0 else [None]
    bwrap, abi = shutil.which("bwrap"), landlock.abi()
    if cap != "L2":
        missing.append(messages.say("layer_off", layer="bubblewrap", reason=capped_because))
    elif bwrap is None:
        missing.append(messages.say("layer_off", layer="bubblewrap", reason=messages.say("no_bwrap")))
    else:
        found = _first_working([Confinement("L2", SANDBOX_UID, bwrap, seccomp=True, landlock=abi)], missing)
        if found:
            version = _cgroup_version(missing)  # before the reasons are frozen: it adds why there is none
            return Confinement(found.level, found.uid, found.bwrap, tuple(missing), found.seccomp, found.landlock,
                               version)
    if cap == "L0":
        missing += [messages.say("layer_off", layer=layer, reason=capped_because) for layer in ("seccomp", "Landlock")]
    elif not abi:
        missing.append(messages.say("layer_off", layer="Landlock", reason=messages.say("no_landlock")))
    candidates = [Confinement("L1", uid, seccomp=True, landlock=abi) for uid in uids] if abi and cap != "L0" else []
    candidates += [Confinement("L0", uid, seccomp=True) for uid in uids] if cap != "L0" else []
    found = _first_working(candidates + [Confinement("L0", uid) for uid in uids], missing)
    base = found or Confinement("L0", None)
    private, version = _private_mounts_work(base, missing), _cgroup_version(missing)
    return Confinement(base.level, base.uid, None, tuple(missing), base.seccomp, base.landlock, version, private)


def _cgroup_version(missing: list[str]) -> int:
    """The cgroup version workers get; why none, added to ``missing``."""
    if os.environ.get(CGROUPS_ENV) == "off":
        missing.append(messages.say("layer_off", layer="cgroup", reason=messages.say("layer_env_off", env=CGROUPS_ENV)))
        return 0
    found = cgroup.available()
    if isinstance(found, str):
        missing.append(messages.say("layer_off", layer="cgroup", reason=found))
        return 0
    return found


def _private_mounts_work(base: Confinement, missing: list[str]) -> bool:
    """Below L2: whether a probe in a mount namespace of its own, with a sized scratch tmpfs, starts here."""
    if os.geteuid() != 0 or os.environ.get(PRIVATE_MOUNTS_ENV) == "off":
        reason = messages.say("layer_env_off", env=PRIVATE_MOUNTS_ENV) if os.geteuid() == 0 else messages.say(
            "layer_uid_not_root")
        missing.append(messages.say("layer_off", layer="private mounts", reason=reason))
        return False
    failure = _try_private_mounts(base)
    if failure is not None:
        missing.append(messages.say("layer_off", layer="private mounts", reason=failure))
    return failure is None


def _try_private_mounts(base: Confinement) -> str | None:
    """Make a worker's private mounts in a forked child; None when that works, else why not. A fork, not a probe
    interpreter: the interpreter and the other layers were probed already, and this costs milliseconds."""
    scratch = make_scratch(None, base)
    try:
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                mounts.private_scratch(scratch, b"", TMPFS_BYTES, base.uid)
            except OSError as exc:
                code = exc.errno or 255
            except BaseException:  # noqa: BLE001 -- the child must never return into the judge's code
                code = 255
            os._exit(code)
        _, status = os.waitpid(pid, 0)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    code = os.waitstatus_to_exitcode(status)
    return None if code == 0 else os.strerror(code) if 0 < code < 255 else f"exit status {code}"


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
    protect_judge()
    scratch = make_scratch(submission, confined)
    argv = [sys.executable, *PYTHON_FLAGS, "-m", "judge.worker.main", str(fds[0]), str(fds[1]),
            str(scratch / "solution.py"), *confined.lockdown.argv()]
    group = worker_group(confined, memory_bytes)
    try:
        process = _popen(confined, scratch, argv, memory_bytes, group, stdin=subprocess.DEVNULL, stdout=output_fd,
                         stderr=output_fd, pass_fds=fds)
    except BaseException:
        if group is not None:
            group.remove()
        raise
    return Started(process, scratch, group, *watched(confined, str(scratch)))


@dataclass(frozen=True)
class Layer:
    """One layer of confinement, for ``judge doctor``."""

    name: str
    active: bool
    detail: str
    """what it does when active, else why it is off"""


def limits_summary(found: Confinement, memory_bytes: int | None = None) -> str:
    """How this confinement bounds memory, threads and disk (in ``judge doctor`` and every report)."""
    memory = f"{memory_bytes >> 20} MiB" if memory_bytes else "capped"
    memory_how = (messages.say("limits_memory_cgroup", version=found.cgroup) if found.cgroup
                  else messages.say("limits_memory_rss"))
    tasks_how = messages.say("limits_tasks_cgroup" if found.cgroup else "limits_tasks_poll")
    disk_how = ("limits_disk_tmpfs" if found.bwrap or found.private_mounts
                else "limits_disk_landlock" if found.landlock else "limits_disk_walk")
    return messages.say("limits_summary", memory=memory, memory_how=memory_how, tasks=PROCESS_LIMIT,
                        tasks_how=tasks_how, disk=DISK_QUOTA >> 20, disk_how=messages.say(disk_how))


def _why_off(found: Confinement, layer: str) -> str:
    prefix = messages.say("layer_off", layer=layer, reason="")
    return next((m.removeprefix(prefix) for m in found.missing if m.startswith(prefix)), messages.say("layer_weaker"))


def explain(device: str = "cpu") -> list[Layer]:
    """Each layer a worker started here gets, on or off, with what it does or why it is off; the last entry is
    the level, with what it guarantees (the same for ``judge run``/``submit`` and ``judge grade``)."""
    found = confinement(device)
    scope = messages.say("layer_landlock_scope") if found.landlock >= 6 else messages.say("layer_landlock_noscope")
    uid_off = _why_off(found, f"uid {SANDBOX_UID}") if os.geteuid() == 0 else messages.say("layer_uid_not_root")
    return [
        Layer("limits", True, messages.say("layer_limits", limits=limits_summary(found))),
        Layer("cgroup", bool(found.cgroup), messages.say("layer_cgroup", version=found.cgroup) if found.cgroup
              else _why_off(found, "cgroup")),
        Layer("private mounts", found.private_mounts,
              messages.say("layer_private_mounts", size=TMPFS_BYTES >> 20) if found.private_mounts
              else messages.say("layer_bwrap_has_it") if found.bwrap else _why_off(found, "private mounts")),
        Layer("uid", found.uid is not None,
              messages.say("layer_uid", uid=found.uid) if found.uid is not None else
              messages.say("layer_uid_kept", uid=os.geteuid(), reason=uid_off)),
        Layer("capabilities", True, messages.say("layer_capabilities")),
        Layer("seccomp", found.seccomp, messages.say("layer_seccomp") if found.seccomp else _why_off(found, "seccomp")),
        Layer("Landlock", bool(found.landlock),
              messages.say("layer_landlock", abi=found.landlock, scope=scope) if found.landlock
              else _why_off(found, "Landlock")),
        Layer("bubblewrap", bool(found.bwrap), messages.say("layer_bwrap") if found.bwrap
              else _why_off(found, "bubblewrap")),
        Layer("level", found.keeps_secrets, messages.say(f"guarantee_{found.level}")),
    ]


@functools.cache
def protect_judge() -> None:
    """Make this process (the judge) non-dumpable, and remove what killed judges left behind; once, before the
    first worker starts. Non-dumpable: a worker of the same uid cannot open ``/proc/<judge>/mem``, ``environ``
    or ``fd`` without ``CAP_SYS_PTRACE``, which no worker has."""
    privileges.set_dumpable(False)
    remove_leftovers()
    if os.environ.get(CGROUPS_ENV) != "off":
        cgroup.remove_leftovers(_running)


def warm_confinement(device: str = "cpu") -> Confinement:
    """The layers of a worker forked from a warm process (``judge grade``): those of a fresh worker.

    Under L2 the zygote itself starts in the bubblewrap view a fresh worker gets, so every worker it forks is in
    it too; each worker then drops its capabilities, and puts Landlock and the seccomp filter on itself.
    """
    return confinement(device)


def start_zygote(control_fd: int, device: str = "cpu") -> Started:
    """Start the warm process that forks workers (:mod:`judge.worker.zygote`).

    No submission code runs in it, so it gets the worker's environment, view (under L2), session and death with
    the judge but no resource limits; every worker it forks confines itself with :func:`confine_forked_worker`.
    Its scratch directory holds one fresh directory per worker, which the zygote removes when the worker ends.
    """
    confined = warm_confinement(device)
    protect_judge()
    scratch = make_scratch(None, confined, "zygote")
    if confined.uid is not None and not confined.bwrap:
        scratch.chmod(0o711)  # the worker's uid may pass through to its own directory, and write nothing here
    argv = [sys.executable, *PYTHON_FLAGS, "-m", "judge.worker.zygote", str(control_fd), *confined.lockdown.argv()]
    process = subprocess.Popen(
        _command(confined, scratch, argv), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        pass_fds=(control_fd,), cwd=scratch, env=_environment(scratch), start_new_session=True,
        preexec_fn=_die_with_parent,
    )
    return Started(process, scratch)


def _die_with_parent() -> None:
    libc.load().prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def confine_forked_worker(scratch: Path, memory_bytes: int, output_fd: int, keep_fds: tuple[int, ...],
                          parent: int, uid: int | None, private_mounts: bool = False) -> None:
    """Confine a worker just forked from the zygote, before any submission code runs in it.

    As :func:`start` does for a fresh worker below L2: a new session, the limits, the uid and the death with
    ``parent`` of ``_limits``, stdin from ``/dev/null``, stdout and stderr to ``output_fd``, no open descriptor
    but ``keep_fds`` (the zygote's control socket above all), the scratch directory as working directory and the
    worker environment (the zygote was started with it, so the interpreter's own additions, such as ``LC_CTYPE``,
    are kept too). It is made dumpable again (the zygote is not), so the judge can reset its peak memory.
    Capabilities, Landlock and the seccomp filter come last, from :func:`judge.worker.main.serve`, as in a fresh
    worker.
    """
    os.setsid()
    _limits(memory_bytes, uid, parent, scratch=scratch if private_mounts else None)()
    privileges.set_dumpable(True)
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
