"""One control group per worker, where this machine lets the judge make them: memory, tasks and CPU.

A worker's resident set misses memory held in ``memfd`` files, tmpfs files and the page cache, and
``RLIMIT_NPROC`` is not enforced for uid 0; a memory cgroup charges every page the worker touches, those
included, and a pids cgroup counts every task (threads too) whatever its uid. Each worker, fresh or forked from
a zygote, gets a group of its own below the judge's, with

* a hard memory limit (swap included where the kernel accounts it), so what no sampling sees is still bounded,
  and the count of the kernel's OOM kills, which the memory verdict reads;
* a task limit (``pids.max``);
* CPU accounting (``cpuacct.usage`` or ``cpu.stat``), which counts threads and processes that already ended.

cgroup v2 is used when this process's own group is a delegated subtree with ``memory`` and ``pids`` enabled
for its children; otherwise cgroup v1, with the ``memory``, ``pids`` and ``cpuacct`` hierarchies (root only,
in practice). Without either, :func:`available` says why, and the worker's other layers close the holes
(:mod:`judge.worker.launch`).
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

V1_CONTROLLERS = ("memory", "pids", "cpuacct")
V1_READ = (*V1_CONTROLLERS, "cpu")
"""the v1 hierarchies whose mount points are looked for: the workers' controllers, and ``cpu`` for a box's quota"""
V2_NEEDED = ("memory", "pids")
UNLIMITED_V1 = 1 << 62
"""a v1 ``memory.limit_in_bytes`` at or above this is "no limit" (the kernel writes a page-rounded 2**63 - 1)"""
REMOVE_S = 2.0
GROUP_NAME = re.compile(r"judge-(\d+)-\d+")
"""a worker's group is named after the judge that made it, so a later judge can remove those of a killed one"""
_counter = itertools.count()


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _own_paths() -> dict[str, str]:
    """This process's group in each hierarchy, by controller (``""`` for the v2 one)."""
    paths = {}
    for line in _read(Path("/proc/self/cgroup")).splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            paths[name] = path
    return paths


def _mounts() -> dict[str, Path]:
    """This process's own group in each controller's mount that shows it (``""``: the v2 hierarchy)."""
    return {name: own for name, (_, own) in _mount_points().items()}


def _mount_points() -> dict[str, tuple[Path, Path]]:
    """Each controller's mount point that shows this process's own group, with that group's folder in it."""
    own, found = _own_paths(), {}
    for line in _read(Path("/proc/self/mountinfo")).splitlines():
        before, after = line.split(" - ", 1)
        fields, (fstype, _, options) = before.split(), after.split(" ", 2)
        root, point = fields[3], fields[4]
        names = [""] if fstype == "cgroup2" else [n for n in options.split(",") if n in V1_READ]
        for name in names if fstype in ("cgroup", "cgroup2") else []:
            path = own.get(name)
            if path is not None and (path + "/").startswith(root.rstrip("/") + "/"):
                found[name] = (Path(point), Path(point) / path[len(root.rstrip("/")):].lstrip("/"))
    return found


@dataclass
class Group:
    """One worker's group: one directory per v1 controller, or one v2 directory under every key."""

    version: int
    dirs: dict[str, Path]

    def _file(self, controller: str, name: str) -> Path:
        return self.dirs[controller] / name

    def join(self, pid: int) -> None:
        """Move ``pid`` (and, from then on, everything it starts) into the group."""
        for directory in {d for d in self.dirs.values()}:
            (directory / "cgroup.procs").write_text(str(pid))

    def memory_bytes(self) -> int:
        name = "memory.usage_in_bytes" if self.version == 1 else "memory.current"
        text = _read(self._file("memory", name)).strip()
        return int(text) if text else 0

    def peak_bytes(self) -> int:
        """The most memory the group held at once."""
        name = "memory.max_usage_in_bytes" if self.version == 1 else "memory.peak"
        text = _read(self._file("memory", name)).strip()
        return int(text) if text.isdigit() else 0

    def oom_kills(self) -> int:
        """How many of the group's processes the kernel killed at its memory limit."""
        name = "memory.oom_control" if self.version == 1 else "memory.events"
        for line in _read(self._file("memory", name)).splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def cpu_s(self) -> float:
        if self.version == 1:
            text = _read(self._file("cpuacct", "cpuacct.usage")).strip()
            return int(text) / 1e9 if text else 0.0
        for line in _read(self._file("memory", "cpu.stat")).splitlines():
            if line.startswith("usage_usec "):
                return int(line.split()[1]) / 1e6
        return 0.0

    def tasks(self) -> int:
        text = _read(self._file("pids", "pids.current")).strip()
        return int(text) if text else 0

    def remove(self) -> None:
        """Kill what is left in the group (only a worker's processes are there) and remove it."""
        deadline = time.monotonic() + REMOVE_S
        for directory in {d for d in self.dirs.values()}:
            while True:
                for pid in _read(directory / "cgroup.procs").split():
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except OSError:
                        pass
                try:
                    directory.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.01)


@dataclass(frozen=True)
class Box:
    """What this process's own cgroups and their ancestors allow everything it starts, together: a container's
    limits, seen from inside it. The judge's workers share them with the judge, so their own limits must fit."""

    memory_bytes: int | None
    """the tightest memory limit (v2 ``memory.max``, v1 ``memory.limit_in_bytes``); None: none"""
    cpus: float | None
    """the tightest CPU quota in CPUs (v2 ``cpu.max``, v1 ``cpu.cfs_quota_us / cpu.cfs_period_us``); None: none"""
    source: str = ""
    """the cgroup version the limits were read from, for ``judge doctor``"""


def _ancestors(directory: Path, top: Path) -> list[Path]:
    """``directory`` and each folder above it up to the mount point ``top`` (a container sees its own group there)."""
    found = [directory]
    while found[-1] != top and top in found[-1].parents:
        found.append(found[-1].parent)
    return found


def _tightest(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return min(known) if known else None


def _v2_limits(directory: Path) -> tuple[float | None, float | None]:
    memory = _read(directory / "memory.max").strip()
    quota, _, period = _read(directory / "cpu.max").strip().partition(" ")
    return (int(memory) if memory.isdigit() else None,
            int(quota) / int(period) if quota.isdigit() and period.isdigit() and int(period) else None)


def _v1_memory(directory: Path) -> int | None:
    text = _read(directory / "memory.limit_in_bytes").strip()
    return int(text) if text.isdigit() and int(text) < UNLIMITED_V1 else None


def _v1_cpus(directory: Path) -> float | None:
    quota, period = (_read(directory / name).strip() for name in ("cpu.cfs_quota_us", "cpu.cfs_period_us"))
    return int(quota) / int(period) if quota.isdigit() and period.isdigit() and int(period) else None


@functools.cache
def box() -> Box:
    """The limits of the box this judge runs in (read once): those of a cgroup v2 hierarchy where this process
    has one, else of the v1 ``memory`` and ``cpu`` hierarchies. A limit set in only one place still counts."""
    points = _mount_points()
    if "" in points:
        pairs = [_v2_limits(d) for d in _ancestors(points[""][1], points[""][0])]
        found = Box(_tightest([m for m, _ in pairs]), _tightest([c for _, c in pairs]), "cgroup v2")
        if found.memory_bytes is not None or found.cpus is not None:
            return found
    memory = [_v1_memory(d) for d in _ancestors(points["memory"][1], points["memory"][0])] if "memory" in points else []
    cpus = [_v1_cpus(d) for d in _ancestors(points["cpu"][1], points["cpu"][0])] if "cpu" in points else []
    found = Box(_tightest(memory), _tightest(cpus), "cgroup v1")
    return found if found.memory_bytes is not None or found.cpus is not None else Box(None, None)


def _v2_base(mounts: dict[str, Path]) -> Path | None:
    base = mounts.get("")
    if base is None:
        return None
    enabled = _read(base / "cgroup.subtree_control").split()
    return base if all(c in enabled for c in V2_NEEDED) else None


def _v1_bases(mounts: dict[str, Path]) -> dict[str, Path] | None:
    if not all(c in mounts for c in V1_CONTROLLERS):
        return None
    return {c: mounts[c] for c in V1_CONTROLLERS}


@functools.cache
def _bases() -> tuple[int, dict[str, Path]] | str:
    """Where the judge may make groups, or why it may not (probed once, by making one)."""
    mounts = _mounts()
    v2 = _v2_base(mounts)
    candidates = [(2, dict.fromkeys(("memory", "pids", "cpuacct"), v2))] if v2 else []
    v1 = _v1_bases(mounts)
    candidates += [(1, v1)] if v1 else []
    if not candidates:
        return "no cgroup v2 subtree with memory and pids delegated, no cgroup v1 memory, pids and cpuacct"
    reason = ""
    for version, bases in candidates:
        try:
            probe = _make(version, bases, f"judge-probe-{os.getpid()}", 1 << 30, 8)
            probe.remove()
            return version, bases
        except OSError as exc:
            reason = f"cgroup v{version}: {exc.strerror or exc}"
    return reason


def _make(version: int, bases: dict[str, Path], name: str, memory_bytes: int, tasks: int) -> Group:
    dirs = {c: base / name for c, base in bases.items()}
    group = Group(version, dirs)
    try:
        for directory in set(dirs.values()):
            directory.mkdir()
        if version == 1:
            (dirs["memory"] / "memory.limit_in_bytes").write_text(str(memory_bytes))
            swap = dirs["memory"] / "memory.memsw.limit_in_bytes"
            if swap.exists():
                swap.write_text(str(memory_bytes))
        else:
            (dirs["memory"] / "memory.max").write_text(str(memory_bytes))
            swap = dirs["memory"] / "memory.swap.max"
            if swap.exists():
                swap.write_text("0")
        (dirs["pids"] / "pids.max").write_text(str(tasks))
    except OSError:
        group.remove()
        raise
    return group


def available() -> int | str:
    """The cgroup version workers get (1 or 2), or why they get none."""
    found = _bases()
    return found if isinstance(found, str) else found[0]


def remove_leftovers(running: Callable[[int], bool]) -> list[str]:
    """Remove the groups of judges no longer ``running`` (one killed with SIGKILL cannot remove its own)."""
    found = _bases()
    if isinstance(found, str):
        return []
    version, bases = found
    removed = []
    for base in set(bases.values()):
        for directory in base.glob("judge-*-*"):
            match = GROUP_NAME.fullmatch(directory.name)
            if match and not running(int(match.group(1))):
                Group(version, {"": directory}).remove()
                removed.append(str(directory))
    return removed


def create(memory_bytes: int, tasks: int) -> Group | None:
    """A fresh group for one worker, limited to ``memory_bytes`` and ``tasks``; None where there are none."""
    found = _bases()
    if isinstance(found, str):
        return None
    version, bases = found
    try:
        return _make(version, bases, f"judge-{os.getpid()}-{next(_counter)}", memory_bytes, tasks)
    except OSError:
        return None
