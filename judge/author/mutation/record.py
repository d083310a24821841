"""What ``judge verify``'s mutation step said about a problem, kept so that an unchanged problem is not mutated again.

A record is keyed by everything the mutation run reads: the judge's own code (every file of the package), torch,
the device, this machine (CPU model and count: generated inputs pass the fragility checks of the CPUs they are made
on), the reference and every file of the problem's package but its declared submissions (judged on every run
anyway). Change any of them and the key changes, so the run is made again. It holds the lines the step reported
and whether each was a line, a warning or an error, and is replayed as it was, after a line saying so. A run in
which the judge failed on a mutant is never kept. ``judge verify --recompute`` ignores every record;
``judge mutate`` never reads one; CI's slow step runs ``judge mutate`` on every problem.

Records live in the calibration cache's folder (:func:`judge.places.cache_dir`), under ``mutation/``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
from pathlib import Path
from typing import Any

from judge.machine import cpu_model, torch_version
from judge.package.problem import Problem
from judge.places import cache_dir

FORMAT = "1"
SKIPPED = ("submissions", "__pycache__")
"""folders of a problem's package the mutation run never reads"""
KINDS = ("log", "warning", "error")


@functools.lru_cache(maxsize=1)
def _judge_code() -> str:
    """A digest of every file of the judge's package: a change to any step of judging is a change of the judge."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def key(problem: Problem, device: str) -> str:
    digest = hashlib.sha256()
    parts = [FORMAT, _judge_code(), torch_version(), device, platform.machine(), cpu_model(), str(os.cpu_count())]
    files = [(Path("reference.py"), problem.reference)]
    files += [(p.relative_to(problem.root), p) for p in sorted(problem.root.rglob("*"))
              if p.is_file() and not set(SKIPPED) & set(p.relative_to(problem.root).parts)]
    for part in parts:
        digest.update(part.encode() + b"\0")
    for name, path in files:
        digest.update(str(name).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def _path(problem: Problem, device: str) -> Path:
    return cache_dir() / "mutation" / f"{problem.slug}-{key(problem, device)}.json"


def load(problem: Problem, device: str) -> list[tuple[str, str]] | None:
    """The reported lines of an up-to-date record, or None when there is none (or it cannot be read)."""
    try:
        events = json.loads(_path(problem, device).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(events, list) or not all(
            isinstance(e, list) and len(e) == 2 and e[0] in KINDS and isinstance(e[1], str) for e in events):
        return None
    return [(kind, text) for kind, text in events]


def store(problem: Problem, device: str, events: list[tuple[str, str]]) -> None:
    """Keep ``events``; a cache that cannot be written only means the next run mutates again."""
    path = _path(problem, device)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        partial.write_text(json.dumps(events), encoding="utf-8")
        partial.replace(path)
    except OSError:
        pass


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
