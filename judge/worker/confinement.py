"""How tightly a worker is confined: the levels, what each guarantees, and the bounds every worker gets.

Levels, each defined by what it guarantees (``docs/security.md`` says it for people):

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
that unless told to (``--allow-weak-sandbox``). Which level this machine gives is found by
:mod:`judge.worker.probe`; workers are started under it by :mod:`judge.worker.launch`.
"""

from __future__ import annotations

import functools
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from judge.places import cache_dir, data_home
from judge.worker import landlock
from judge.worker.main import Lockdown

LEVELS = ("L0", "L1", "L2")
SANDBOX_UID = 65534
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
    """each worker in a mount namespace of its own, everything read-only but a sized tmpfs over its scratch
    directory (:mod:`judge.worker.mounts`): below L2 as root; under L2, each worker a warm process forks (a fresh
    one has bubblewrap's view to itself)"""
    ipc: str = ""
    """how each worker gets an IPC namespace of its own (:data:`judge.worker.ipc.MODES`): a worker a zygote forks
    at every level, a fresh one below L2 (bubblewrap gives a fresh one its own); empty: none can be made here"""

    @property
    def keeps_secrets(self) -> bool:
        """Whether hidden data is out of a worker's reach: Landlock (L1) or bubblewrap's view (L2)."""
        return self.level in ("L1", "L2")

    @property
    def lockdown(self) -> Lockdown:
        """A fresh worker under L2 covers bubblewrap's ``/proc`` where the view lets it make mounts of its own."""
        return Lockdown(self.seccomp, secrets() if self.landlock else None,
                        cover_proc=bool(self.bwrap and self.private_mounts))

    @property
    def disk_bounded(self) -> bool:
        """Whether the disk quota holds everywhere the worker can write (else only in its scratch directory)."""
        return bool(self.bwrap or self.landlock or self.private_mounts)

    def layers(self, lang: str = "en") -> list[str]:
        """The names of its layers, in ``lang`` (the kernel's and the tools' own names as they are)."""
        from judge import messages  # here, not above: a warm process imports this module, and no worker may read them

        return [messages.say_in(lang, "layer_name_limits"), *([f"cgroup v{self.cgroup}"] if self.cgroup else []),
                *([messages.say_in(lang, "layer_name_private_mounts")] if self.private_mounts else []),
                messages.say_in(lang, "layer_name_no_capabilities"), *(["seccomp"] if self.seccomp else []),
                *([f"Landlock ABI {self.landlock}"] if self.landlock else []), *(["bubblewrap"] if self.bwrap else [])]

    def describe(self, lang: str = "en") -> str:
        """The level with its layers, as every report prints it (in ``lang``: ``judge run --verbose --lang zh``)."""
        from judge import messages

        say = functools.partial(messages.say_in, lang)
        who = f"uid {self.uid}" if self.uid is not None else f"uid {os.geteuid()}"
        weak = "" if self.keeps_secrets else f"; {say('secrets_exposed')}"
        limits = say("limits_short", memory=f"cgroup v{self.cgroup}" if self.cgroup else say("memory_resident_set"),
                     tasks=PROCESS_LIMIT, disk=DISK_QUOTA >> 20)
        return say("security_level", level=self.level, layers=", ".join(self.layers(lang)), who=who, limits=limits,
                   missing="".join(f"; {messages.said_in(lang, m)}" for m in self.missing) + weak)

    def watched(self, scratch: str) -> tuple[tuple[str, ...], int]:
        """Where a worker whose scratch directory is ``scratch`` may write, and whether each is a tmpfs of its own.

        Under L2: its scratch directory and ``/tmp`` (Landlock, where the kernel has it, leaves only the first).
        Below, the scratch directory: under L1 Landlock allows nothing else; under L0 private mounts make the rest
        read-only, and without them (not root) nothing bounds the other directories its uid may write.
        """
        if self.bwrap:
            return (scratch, "/tmp"), TMPFS_BYTES
        return (scratch,), TMPFS_BYTES if self.private_mounts else 0


def secrets() -> landlock.Secrets:
    """What no worker may reach: every problem and solution folder, the history, the calibration cache; and
    no ancestor of the home directory or of the temporary folder (every worker's scratch directory is there)."""
    from judge.package.problem import bundle, problems_roots, solutions_roots

    kept = [*filter(None, [bundle()]), *problems_roots(), *solutions_roots(), data_home(), cache_dir()]
    return landlock.Secrets(tuple(str(p) for p in kept), (str(Path.home()), tempfile.gettempdir()))
