"""A toy :class:`judge.author.parallel.Work` for tests/test_parallel.py: importable by the processes it is sent to."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable

from judge.errors import BadInput


class Toy:
    """Item ``name:seconds``: logs three lines around a sleep of that long; ``raise:…`` raises a ValueError,
    ``unpicklable:…`` an exception no other process can rebuild, ``bad:…`` the judge's own BadInput; ``die:…`` ends its
    process at once. Each process appends its pid to ``closed`` when it is closed."""

    def __init__(self, closed: Path):
        self.closed = closed

    def __call__(self, item: str, log: Callable[[str], None]) -> str:
        name, seconds = item.split(":")
        if name == "raise":
            raise ValueError("a bug in the work")
        if name == "unpicklable":
            class Local(Exception):
                pass
            raise Local("made inside a function")
        if name == "bad":
            raise BadInput("unknown_problem", slug="bad", known="a, b")
        if name == "die":
            os._exit(3)
        log(f"{name} 1")
        time.sleep(float(seconds))
        log(f"{name} 2")
        log(f"{name} 3")
        return name.upper()

    def close(self) -> None:
        with self.closed.open("a") as out:
            out.write(f"{os.getpid()}\n")
