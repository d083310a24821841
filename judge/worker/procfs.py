"""Measure a worker's whole process tree from outside, through ``/proc`` (Linux).

The parent measures and kills; nothing the worker says about its own time or memory is trusted.
CPU time is taken two ways and the larger wins: ``/proc/PID/task/*/schedstat`` (nanoseconds, live threads)
and ``/proc/PID/stat`` utime+stime+cutime+cstime (clock ticks, but includes threads and children that already
exited), so neither short-lived threads nor coarse ticks hide work.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass(frozen=True)
class Usage:
    cpu_s: float
    rss_bytes: int
    peak_rss_bytes: int


def _read(path: str) -> str:
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read()
    except OSError:  # the process ended between listing and reading
        return ""


def tree(pid: int) -> list[int]:
    """``pid`` and all its live descendants."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            todo.extend(int(c) for c in _read(f"{task}/children").split())
    return found


def _cpu(pid: int) -> float:
    stat = _read(f"/proc/{pid}/stat")
    if not stat:
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()
    ticks = sum(int(f) for f in fields[11:15]) / TICK  # utime stime cutime cstime
    ns = 0
    for task in Path(f"/proc/{pid}/task").glob("*"):
        parts = _read(f"{task}/schedstat").split()
        ns += int(parts[0]) if parts else 0
    return max(ticks, ns / 1e9)


def _status_kb(pid: int, key: str) -> int:
    for line in _read(f"/proc/{pid}/status").splitlines():
        if line.startswith(key):
            return int(line.split()[1])
    return 0


def usage(pid: int) -> Usage:
    pids = tree(pid)
    return Usage(
        cpu_s=sum(_cpu(p) for p in pids),
        rss_bytes=sum(_status_kb(p, "VmRSS:") for p in pids) * 1024,
        peak_rss_bytes=sum(_status_kb(p, "VmHWM:") for p in pids) * 1024,
    )


def reset_peak(pid: int) -> None:
    """Start a new peak-RSS window for every process of the tree (``clear_refs`` 5 resets VmHWM)."""
    for p in tree(pid):
        try:
            with open(f"/proc/{p}/clear_refs", "w") as f:
                f.write("5")
        except OSError:
            pass
