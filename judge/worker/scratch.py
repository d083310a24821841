"""Scratch directories: a fresh one per worker (and per warm process), and what killed judges left behind.

A scratch directory lives in the temporary folder as ``judge-<kind>-<judge's pid>-<random>`` and holds only
``solution.py``; outside L2 it is the worker's working directory and the only place it may write. The pid in its
name lets a later judge remove the directories of one that was killed with SIGKILL (:func:`remove_leftovers`).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from judge.worker.confinement import Confinement

SCRATCH_NAME = re.compile(r"judge-(?:worker|zygote)-(\d+)-")
"""a scratch directory's name carries the pid of the judge that made it, so a later judge can remove the
directories of one that was killed"""


def scratch_prefix(kind: str) -> str:
    """``judge-<kind>-<this judge's pid>-``: see :data:`SCRATCH_NAME`."""
    return f"judge-{kind}-{os.getpid()}-"


def make_scratch(solution: bytes, confinement: Confinement, kind: str = "worker") -> Path:
    """A fresh directory holding only ``solution.py`` with the bytes ``solution`` (the judge writes them: it read
    and hashed them); outside L2 it is the worker's own, writable directory."""
    scratch = Path(tempfile.mkdtemp(prefix=scratch_prefix(kind)))
    target = scratch / "solution.py"
    target.write_bytes(solution)
    target.chmod(0o644)
    if confinement.uid is not None and not confinement.bwrap and kind == "worker":
        os.chown(scratch, confinement.uid, confinement.uid)
    return scratch


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
        if match and not running(int(match.group(1))):
            shutil.rmtree(os.path.join(folder, name), ignore_errors=True)
            removed.append(os.path.join(folder, name))
    return removed


def running(pid: int) -> bool:
    """Whether a process ``pid`` exists (one of another uid counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
