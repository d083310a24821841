"""The mutation result a problem's package keeps, so that an unchanged problem is not mutated again.

``judge verify`` writes what its mutation step reported for a problem, with each mutant's status and the machine
it was measured on, to ``mutation-<device>.json`` in the problem's package, beside its cases: the package carries
its measured score as it carries its expected values, and a fresh clone replays it instead of measuring again.

A record is keyed by everything the run reads that a checkout or an install can change: the judge's own code (every
file of its package), the :func:`environment` (torch's, NumPy's and Python's versions, kept in the record too), the
device, the reference and every file of the problem's package but its declared submissions (judged on every run
anyway) and its records. Change any of them and the record is stale: the run is made again and the record
rewritten. The machine is not in the key, so that a record made here is read on another checkout
of the same tree; it is written in the record and named whenever the record is replayed, and CI's slow step
measures every bundled problem again and fails where a record says other than what it measures
(``tests/test_mutate.py``). A run that reported an error (a score under the floor, a stale declaration: lines
that name paths on one disk) or in which the judge failed on a mutant is never kept. ``judge verify --recompute``
ignores every record; ``judge mutate`` never reads one.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.machine import cpu_model, distribution_version, torch_version
from judge.package.problem import Problem

FORMAT = "2"
PREFIX = "mutation-"
SKIPPED = ("submissions", "__pycache__")
"""folders of a problem's package the mutation run never reads"""
KINDS = ("log", "warning", "error")


@dataclass(frozen=True)
class Kept:
    """An up-to-date record: where it was measured, each mutant's status, and the lines the step reported."""

    measured_on: str
    statuses: dict[str, str]
    events: list[tuple[str, str]]


@functools.lru_cache(maxsize=1)
def _judge_code() -> str:
    """A digest of every file of the judge's package: a change to any step of judging is a change of the judge."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _read(name: Path) -> bool:
    """Whether the mutation run reads the package's file ``name`` (relative to its root): a record, or one being
    written, is not read."""
    return not set(SKIPPED) & set(name.parts) and not (len(name.parts) == 1 and name.name.startswith(PREFIX))


def environment() -> dict[str, str]:
    """What this install runs the mutants with, beside the judge's own code: part of the key, and kept in the record."""
    return {"torch": torch_version(), "numpy": distribution_version("numpy"),
            "python": ".".join(platform.python_version_tuple()[:2])}


def _package_files(root: Path) -> list[Path]:
    """Every file under ``root``, through linked folders too (the case loader reads through them), each folder
    once however often it is linked."""
    found, seen = [], set()
    for folder, folders, files in os.walk(root, followlinks=True):
        real = os.path.realpath(folder)
        if real in seen:
            folders[:] = []
            continue
        seen.add(real)
        found += [Path(folder, name) for name in files]
    return sorted(p for p in found if p.is_file())


def key(problem: Problem, device: str, installed: dict[str, str] | None = None) -> str:
    """The key of ``problem``'s record on ``device``, with this install's :func:`environment` or ``installed``
    (raises OSError when a file it reads cannot be read: then there is no record to read or keep)."""
    digest = hashlib.sha256()
    installed = environment() if installed is None else installed
    parts = [FORMAT, _judge_code(), *(f"{name}={installed[name]}" for name in sorted(installed)), device]
    files = [(Path("reference.py"), problem.reference)]
    files += [(p.relative_to(problem.root), p) for p in _package_files(problem.root)
              if _read(p.relative_to(problem.root))]
    for part in parts:
        digest.update(part.encode() + b"\0")
    for name, path in files:
        digest.update(str(name).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def machine() -> str:
    """The machine a run is measured on, as a record names it."""
    return f"{cpu_model() or 'an unknown CPU'}, {os.cpu_count()} cores, torch {torch_version()}"


def path(problem: Problem, device: str) -> Path:
    return problem.root / f"{PREFIX}{device}.json"


def _valid(data: Any) -> bool:
    """A record's shape, its texts printable on one line each: a line it replays is never a terminal control."""
    return (isinstance(data, dict) and isinstance(data.get("measured_on"), str) and data["measured_on"].isprintable()
            and isinstance(data.get("statuses"), dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in data["statuses"].items())
            and isinstance(data.get("events"), list)
            and all(isinstance(e, list) and len(e) == 2 and e[0] in KINDS and isinstance(e[1], str)
                    and e[1].isprintable() for e in data["events"]))


def load(problem: Problem, device: str) -> Kept | None:
    """The package's record when it is up to date, else None (also when there is none or it cannot be read)."""
    try:
        data = json.loads(path(problem, device).read_text(encoding="utf-8"))
        if not _valid(data) or data.get("key") != key(problem, device):
            return None
    except (OSError, ValueError, RecursionError):
        return None
    return Kept(data["measured_on"], data["statuses"], [(kind, text) for kind, text in data["events"]])


def store(problem: Problem, device: str, measured: str, statuses: dict[str, str],
          events: list[tuple[str, str]]) -> None:
    """Write the record under the key ``measured`` (the package's before the run: an edit made while it ran makes
    it stale); a package that cannot be written to only means the next run measures again."""
    data = {"format": FORMAT, "key": measured, "environment": environment(), "measured_on": machine(),
            "statuses": statuses, "events": events}
    target = path(problem, device)
    try:
        handle, partial = tempfile.mkstemp(dir=target.parent, prefix=PREFIX, suffix=".partial")
    except OSError:
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(json.dumps(data, indent=1) + "\n")
        os.chmod(partial, 0o644)
        os.replace(partial, target)
    except OSError:
        Path(partial).unlink(missing_ok=True)


class Recording:
    """A tally that passes every line on and remembers it."""

    def __init__(self, tally: Any):
        self.tally, self.events = tally, []

    def _event(self, kind: str, text: str) -> None:
        self.events.append((kind, text))
        getattr(self.tally, kind)(text)

    def log(self, text: str) -> None:
        self._event("log", text)

    def warning(self, text: str) -> None:
        self._event("warning", text)

    def error(self, text: str) -> None:
        self._event("error", text)
