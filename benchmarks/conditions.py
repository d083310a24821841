"""What every benchmark prints before and after its figures: the machine and the load they were measured under.

A timing without its machine and load cannot be checked or compared (the README once promised 1-3 s for
``judge run``; a learner on a loaded 2-core machine saw 6-13 s). So each benchmark runs inside :func:`reported`,
which prints, first, when and where: the CPU model, its cores (and how many this process may use), the memory,
the 1/5/15-minute load averages (``os.getloadavg()``), the judge's, torch's and Python's versions and the security
level of the workers; and, last, the load averages again. A figure copied into the docs takes both lines with it.

    from conditions import reported          # the benchmarks folder is the script's own
    with reported():
        ...print the figures...
"""

from __future__ import annotations

import contextlib
import datetime
import os
import platform
import sys
from typing import Iterator

from judge.machine import cpu_model, judge_version, torch_version


def _memory_gib() -> str:
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            kib = int(next(line for line in meminfo if line.startswith("MemTotal:")).split()[1])
    except (OSError, StopIteration, ValueError):
        return "memory unknown"
    return f"{kib / 2**20:.0f} GiB"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min)"


def _level() -> str:
    from judge.worker import probe

    try:
        return probe.level("cpu").split(" ", 1)[0]
    except Exception as exc:  # noqa: BLE001 -- a machine the probe cannot read still gets its figures printed
        return f"unknown ({type(exc).__name__})"


def machine() -> str:
    """One line: when, on what, under which load, with which versions."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    when = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    return (f"measured {when} on {cpu_model() or platform.machine()}, {os.cpu_count()} cores ({usable} usable), "
            f"{_memory_gib()}; {load()}; judge {judge_version()}, torch {torch_version()}, "
            f"Python {platform.python_version()}, workers at {_level()}")


@contextlib.contextmanager
def reported() -> Iterator[None]:
    """Print :func:`machine` before the body and the load after it (the figures in between were taken so)."""
    print(machine(), flush=True)
    try:
        yield
    finally:
        print(f"at the end: {load()}", flush=True)
        sys.stdout.flush()
