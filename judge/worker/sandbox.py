"""Start a worker process confined as tightly as this machine allows.

Level L0, always: resource limits, an empty environment, an empty scratch directory as the working directory,
``python -I``, a new process session, death when the judge dies, stdin from ``/dev/null``.
The level in force is printed in every report.
"""

from __future__ import annotations

import ctypes
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

PR_SET_PDEATHSIG = 1
FILE_SIZE_LIMIT = 16 << 20
DATA_HEADROOM = 256 << 20
LIFETIME_CPU_S = 600
PASSED_ENV = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH")


@dataclass
class Started:
    process: subprocess.Popen
    scratch: Path
    level: str

    def cleanup(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)


def level() -> str:
    return "L0"


def _environment(scratch: Path) -> dict[str, str]:
    env = {
        "PATH": "/usr/bin:/bin", "HOME": str(scratch), "TMPDIR": str(scratch),
        "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
        "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0",
        "NVIDIA_TF32_OVERRIDE": "0",  # no NVIDIA library may use TF32 (numerics.md §1.2)
    }
    env.update({k: os.environ[k] for k in PASSED_ENV if k in os.environ})
    return env


def _limits(memory_bytes: int):
    def apply() -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        for limit, value in (
            (resource.RLIMIT_DATA, memory_bytes + DATA_HEADROOM),
            (resource.RLIMIT_FSIZE, FILE_SIZE_LIMIT),
            (resource.RLIMIT_CORE, 0),
            (resource.RLIMIT_NOFILE, 256),
            (resource.RLIMIT_CPU, LIFETIME_CPU_S),
        ):
            resource.setrlimit(limit, (value, value))

    return apply


def start(submission: Path, fds: tuple[int, int], output_fd: int, memory_bytes: int) -> Started:
    """Copy the submission into a fresh scratch directory and start a worker on it.

    ``fds`` are the worker's ends of the request and response pipes; ``output_fd`` receives its stdout and stderr.
    """
    scratch = Path(tempfile.mkdtemp(prefix="judge-worker-"))
    target = scratch / "solution.py"
    shutil.copyfile(submission, target)
    argv = [sys.executable, "-I", "-m", "judge.worker.main", str(fds[0]), str(fds[1]), str(target)]
    process = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=output_fd, stderr=output_fd, pass_fds=fds,
        cwd=scratch, env=_environment(scratch), start_new_session=True, preexec_fn=_limits(memory_bytes),
    )
    return Started(process, scratch, level())


def _die_with_parent() -> None:
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def start_zygote(control_fd: int) -> Started:
    """Start the warm process that forks workers (:mod:`judge.worker.zygote`).

    No submission code runs in it, so it gets the worker's environment, session and death with the judge but
    no resource limits; every worker it forks confines itself with :func:`confine_forked_worker`.
    """
    scratch = Path(tempfile.mkdtemp(prefix="judge-zygote-"))
    argv = [sys.executable, "-I", "-m", "judge.worker.zygote", str(control_fd)]
    process = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, pass_fds=(control_fd,),
        cwd=scratch, env=_environment(scratch), start_new_session=True, preexec_fn=_die_with_parent,
    )
    return Started(process, scratch, level())


def confine_forked_worker(scratch: Path, memory_bytes: int, output_fd: int, keep_fds: tuple[int, ...],
                          parent: int) -> None:
    """Confine a worker just forked from the zygote, before any submission code runs in it.

    The same level as :func:`start`: a new session, the limits of ``_limits`` (death with ``parent`` included),
    stdin from ``/dev/null``, stdout and stderr to ``output_fd``, no open descriptor but ``keep_fds`` (the
    zygote's control socket above all), the scratch directory as working directory and the worker environment
    (the zygote was started with it, so the interpreter's own additions, such as ``LC_CTYPE``, are kept too).
    """
    os.setsid()
    _limits(memory_bytes)()
    if os.getppid() != parent:  # the zygote died before the death signal was armed
        os._exit(1)
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
