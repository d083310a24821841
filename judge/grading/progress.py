"""The live progress line: judged so far, students per verdict, elapsed time and an ETA.

Grading reports to a :class:`Progress` and never prints; the command line picks :class:`Line` on a terminal
and :class:`Silent` otherwise, so logs and CI output get only the final summary.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol, TextIO

from judge import messages
from judge.judging.verdict import VERDICTS, Look, Verdict

REDRAW_S = 0.1


class Progress(Protocol):
    def start(self, total: int) -> None:
        """``total`` submissions are about to be judged."""

    def judged(self, verdict: str) -> None:
        """One more submission has its verdict (called from the job slots' threads)."""

    def finish(self) -> None:
        """Judging is over (done or interrupted)."""


class Silent:
    def start(self, total: int) -> None:
        pass

    def judged(self, verdict: str) -> None:
        pass

    def finish(self) -> None:
        pass


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}" if seconds >= 3600 else \
        f"{seconds // 60}:{seconds % 60:02d}"


class Line:
    """One line on a terminal, redrawn in place at most every ``REDRAW_S`` seconds."""

    def __init__(self, stream: TextIO, lang: str = "en"):
        self.stream, self.lang = stream, lang
        self.lock = threading.Lock()
        self.counts: dict[str, int] = {}
        self.total = self.done = 0
        self.started = self.drawn = 0.0

    def start(self, total: int) -> None:
        self.total, self.started = total, time.monotonic()
        self._draw()

    def judged(self, verdict: str) -> None:
        with self.lock:
            self.done += 1
            self.counts[verdict] = self.counts.get(verdict, 0) + 1
            if time.monotonic() - self.drawn >= REDRAW_S or self.done == self.total:
                self._draw()

    def finish(self) -> None:
        with self.lock:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def _name(self, verdict: Verdict, look: Look) -> str:
        """A verdict on the line: its short name (AC, WA, TLE: English abbreviations) in English, its name in another
        language."""
        return look.short if self.lang == "en" else messages.say_in(self.lang, f"verdict_{verdict.value}")

    def _draw(self) -> None:
        self.drawn = time.monotonic()
        elapsed = self.drawn - self.started
        eta = _clock(elapsed / self.done * (self.total - self.done)) if self.done else "?"
        counts = " ".join(f"{self._name(v, look)} {self.counts[v.value]}" for v, look in VERDICTS.items()
                          if v.value in self.counts) or "-"
        line = messages.say_in(self.lang, "grade_progress", done=self.done, total=self.total, counts=counts,
                               elapsed=_clock(elapsed), eta=eta)
        self.stream.write("\r\x1b[K" + line)
        self.stream.flush()
