"""Measure a worker's whole process tree from outside, through ``/proc`` (Linux).

The parent measures and kills; nothing the worker says about its own time or memory is trusted.
CPU time is taken two ways and the larger wins: ``/proc/PID/task/*/schedstat`` (nanoseconds, live threads)
and ``/proc/PID/stat`` utime+stime+cutime+cstime (clock ticks, but includes threads and children that already
exited), so neither short-lived threads nor coarse ticks hide work.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

TICK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Usage:
    cpu_s: float
    rss_bytes: int
    peak_rss_bytes: int
    tasks: int = 0
    """threads of every process of the tree"""


def _read(path: str) -> str:
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read()
    except OSError:  # the process ended between listing and reading
        return ""


def _tasks(pid: int) -> list[str]:
    try:
        return os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []


def _children(pid: int, tasks: list[str]) -> list[int]:
    return [int(c) for task in tasks for c in _read(f"/proc/{pid}/task/{task}/children").split()]


def tree(pid: int) -> list[int]:
    """``pid`` and all its live descendants."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(_children(p, _tasks(p)))
    return found


def namespace_ids(pid: int) -> list[str]:
    """``pid``'s ids in each PID namespace it is in, from this process's (``NSpid``) to its own; empty once it
    has ended."""
    for line in _read(f"/proc/{pid}/status").splitlines():
        if line.startswith("NSpid:"):
            return line.split()[1:]
    return []


def host_pid(root: int, inner: int, depth: int = -1) -> int | None:
    """The pid, as this process sees it, of the descendant of ``root`` that the PID namespace ``depth`` levels
    below this process's numbers ``inner`` (default: its own namespace; a worker forked by a zygote inside
    bubblewrap knows only its pid there); None if there is none."""
    for pid in tree(root):
        ids = namespace_ids(pid)
        if len(ids) > depth and ids[depth] == str(inner):
            return pid
    return None


def _cpu(pid: int, tasks: list[str]) -> float:
    stat = _read(f"/proc/{pid}/stat")
    if not stat:
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()
    ticks = sum(int(f) for f in fields[11:15]) / TICK  # utime stime cutime cstime
    ns = 0
    for task in tasks:
        parts = _read(f"/proc/{pid}/task/{task}/schedstat").split()
        ns += int(parts[0]) if parts else 0
    return max(ticks, ns / 1e9)


def waited_s(pid: int) -> float:
    """Seconds the thread ``pid`` has spent runnable but waiting for a CPU (the second field of its
    ``schedstat``): time a loaded machine took from it, which a sleeping or blocked thread never accrues."""
    parts = _read(f"/proc/{pid}/schedstat").split()
    return int(parts[1]) / 1e9 if len(parts) > 1 else 0.0


def _kb(status: str, key: str) -> int:
    start = status.find(key)
    return int(status[start + len(key):status.find("kB", start)]) if start >= 0 else 0


def status_bytes(pid: int, field: str) -> int:
    """One memory field of ``/proc/PID/status`` (``VmHWM``, ``VmPeak``, ...) in bytes; 0 when it is missing."""
    return _kb(_read(f"/proc/{pid}/status"), f"\n{field}:") * 1024


def _memory_kb(pid: int) -> tuple[int, int]:
    """VmRSS and VmHWM, from one read of ``status``."""
    status = _read(f"/proc/{pid}/status")
    return _kb(status, "\nVmRSS:"), _kb(status, "\nVmHWM:")


def usage(pid: int) -> Usage:
    """The whole tree's CPU time, resident and peak resident memory, in one walk (called every few ms)."""
    cpu_s, rss_kb, peak_kb, count, todo = 0.0, 0, 0, 0, [pid]
    while todo:
        p = todo.pop()
        tasks = _tasks(p)
        todo.extend(_children(p, tasks))
        cpu_s += _cpu(p, tasks)
        rss, peak = _memory_kb(p)
        rss_kb, peak_kb, count = rss_kb + rss, peak_kb + peak, count + len(tasks)
    return Usage(cpu_s=cpu_s, rss_bytes=rss_kb * 1024, peak_rss_bytes=peak_kb * 1024, tasks=count)


def deepest(pid: int) -> int:
    """The descendant of ``pid`` furthest below it (under L2, the worker inside bubblewrap's processes)."""
    best, depth, todo = pid, 0, [(pid, 0)]
    while todo:
        p, d = todo.pop()
        if d > depth:
            best, depth = p, d
        todo.extend((c, d + 1) for c in _children(p, _tasks(p)))
    return best


def written_bytes(pid: int, paths: tuple[str, ...], whole_fs: int) -> int:
    """What is stored under ``paths`` as ``pid``'s mount namespace sees them: by the used blocks of the file
    system when each path is a tmpfs of the worker's own (``whole_fs``: their size; a larger file system is not
    one of them and is skipped), else (0) by a walk."""
    total = 0
    for path in paths:
        where = f"/proc/{pid}/root{path}"
        if not whole_fs:
            total += _walk_bytes(where)
            continue
        try:
            fs = os.statvfs(where)
        except OSError:
            continue
        if fs.f_blocks * fs.f_frsize <= whole_fs:
            total += (fs.f_blocks - fs.f_bfree) * fs.f_frsize
    return total


def _walk_bytes(top: str) -> int:
    total, todo = 0, [top]
    while todo:
        try:
            entries = list(os.scandir(todo.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    todo.append(entry.path)
                else:
                    total += entry.stat(follow_symlinks=False).st_blocks * 512
            except OSError:
                pass
    return total


def reset_peak(pid: int) -> None:
    """Start a new peak-RSS window for every process of the tree (``clear_refs`` 5 resets VmHWM)."""
    for p in tree(pid):
        try:
            with open(f"/proc/{p}/clear_refs", "w") as f:
                f.write("5")
        except OSError:
            pass
