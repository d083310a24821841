"""``judge watch SLUG FILE``: judge the sample cases again every time the file is saved, as rustlings' ``watch``.

The cost of ``judge run`` is mostly starting: an interpreter, ``import torch``, a check that the cases build
bit-identically. A watcher pays that once: it keeps one warm pool (:class:`judge.judging.pool.WorkerPool`,
as ``judge serve`` does) and one plan, and each save is judged by a fresh confined fork of it, exactly as
``judge run`` judges (same cases, limits and report). Saves are noticed by reading the file every
:data:`POLL_S` seconds and comparing its bytes (the standard library has no portable file-change events, and a
file of a few kilobytes costs microseconds to read); a file that is missing for a moment, as when an editor
saves by renaming, is waited for. Watch runs are drafts: they are not recorded in the history (``judge run``
and ``judge submit`` are).
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any, Callable

from judge.judging.plan import make_plan
from judge.judging.pool import WorkerPool
from judge.package.problem import Problem
from judge.pipeline import Judge, Submitted, judge_guarded

POLL_S = 0.1
"""how often the file is looked at"""


class Watcher:
    """One problem's sample cases, judged again and again through one warm process."""

    def __init__(self, problem: Problem, device: str = "cpu", lang: str = "en"):
        plan = make_plan(problem, "run", device)
        self.pool = WorkerPool(plan.confinement)
        self._judge = Judge(plan, self.pool, lang=lang)

    def judge(self, submitted: Submitted) -> dict[str, Any]:
        """The report of ``judge run`` for ``submitted``."""
        return judge_guarded(submitted, self._judge)

    def close(self) -> None:
        self.pool.close()


def _snapshot(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def watch(problem: Problem, path: Path, show: Callable[[dict[str, Any]], None], device: str = "cpu",
          poll_s: float = POLL_S, keep_going: Callable[[], bool] = lambda: True,
          judging: Callable[[], None] = lambda: None, lang: str = "en") -> None:
    """Judge ``path`` now and after every change to its bytes, handing each report to ``show``, while
    ``keep_going()`` (Ctrl-C stops it too: the caller catches it). ``judging()`` is called as soon as a change
    is seen, before it is judged, so the last verdict shown never stands for a file that has changed since."""
    watcher = Watcher(problem, device, lang)
    seen: str | None = None
    try:
        while keep_going():
            data = _snapshot(path)
            digest = hashlib.sha256(data).hexdigest() if data is not None else None
            if digest is not None and digest != seen:
                seen = digest
                judging()
                show(watcher.judge(Submitted.read(path, lang=lang)))
            time.sleep(poll_s)
    finally:
        watcher.close()
