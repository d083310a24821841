"""A cgroup v1 box made by hand, as a platform's container runtime would make one around the judge."""

from __future__ import annotations

import os
from pathlib import Path

from judge.worker import cgroup


def v1_box(tmp_name: str, memory: int, quota_us: int) -> tuple[Path, Path] | None:
    """A v1 memory and cpu group below this process's own, or None where none can be made."""
    points = cgroup._mount_points()
    if os.geteuid() != 0 or "memory" not in points or "cpu" not in points:
        return None
    memory_dir, cpu_dir = points["memory"][1] / tmp_name, points["cpu"][1] / tmp_name
    try:
        memory_dir.mkdir()
        cpu_dir.mkdir()
        (memory_dir / "memory.limit_in_bytes").write_text(str(memory))
        (cpu_dir / "cpu.cfs_quota_us").write_text(str(quota_us))
    except OSError:
        for folder in (memory_dir, cpu_dir):
            if folder.exists():
                folder.rmdir()
        return None
    return memory_dir, cpu_dir
