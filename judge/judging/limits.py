"""Per-case limits, derived from the reference solution's measured CPU times and fitted into the box (container)
the judge runs in: arithmetic on what was measured, no measuring.

A case's CPU-time limit is ``max(time_floor_s, time_multiplier * reference CPU time)``; the wall-clock cap is
``2 * limit + 1 s``. The times come from :func:`judge.judging.calibrate.reference_times`, which times the reference
through the same worker on this machine.

Inside a box (a cgroup limit on memory or CPU above the judge, :func:`judge.worker.cgroup.box`) the limits fit
it, so the judge's own verdicts come before the container's OOM killer or timeout: a worker's memory limit is at
most the box's memory less ``BOX_RESERVE`` (the judge's own process, the worker's mapped libraries and the
headroom of its data limit), and under a CPU quota below one CPU the wall-clock caps stretch by its inverse.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.package.cases import Case
from judge.package.problem import Problem
from judge.worker import probe
from judge.worker.cgroup import Box, box
from judge.worker.runner import Budget

CLOSE_TO_LIMIT = 1.1
"""a call may run to this multiple of its CPU limit; one that finishes above the limit is re-run once"""
BOX_RESERVE = 416 << 20
"""what a box must hold beside a worker's memory limit where no cgroup of its own bounds the worker: the judge's
own process (about 60 MiB), the worker's file-backed pages (torch's libraries, about 80 MiB, which its resident
set counts but its data limit does not) and the 256 MiB by which the worker's data limit exceeds its memory limit
(:data:`judge.worker.launch.DATA_HEADROOM`). The resident-set poll alone is no bound in a box: under a CPU quota
the whole box, the judge included, is throttled once the worker has spent the quota's period, so a worker that
touches pages fast can run tens of milliseconds unobserved."""
BOX_RESERVE_CGROUP = 160 << 20
"""the same where every worker has a cgroup of its own, which charges all its pages: the judge's process and
margin"""
BOX_MIN_MEMORY = 128 << 20
"""a worker's memory limit is never fitted below this (a box that small leaves torch no room: doctor says so)"""


@dataclass(frozen=True)
class CaseLimits:
    cpu_s: float
    memory_bytes: int
    wall_scale: float = 1.0
    """the wall-clock cap's factor: above 1 under a CPU quota below one CPU (:func:`wall_scale`)"""

    @property
    def wall_s(self) -> float:
        return (2 * self.cpu_s + 1.0) * self.wall_scale

    def budget(self) -> Budget:
        return Budget(self.cpu_s * CLOSE_TO_LIMIT, self.wall_s, self.memory_bytes)


def fit_memory(memory_bytes: int, found: Box | None = None, grouped: bool | None = None) -> int:
    """A worker's memory limit, lowered to fit the box (``found``, default: this judge's) where it must;
    ``grouped``: whether each worker has a memory cgroup of its own (default: whether the confinement here has)."""
    found = box() if found is None else found
    if found.memory_bytes is None:
        return memory_bytes
    if grouped is None:
        grouped = bool(probe.confinement().cgroup)
    reserve = BOX_RESERVE_CGROUP if grouped else BOX_RESERVE
    return max(BOX_MIN_MEMORY, min(memory_bytes, found.memory_bytes - reserve))


def wall_scale(found: Box | None = None) -> float:
    """How much longer than usual a wall-clock cap must be: a quota of half a CPU doubles it."""
    found = box() if found is None else found
    return 1.0 / found.cpus if found.cpus is not None and 0 < found.cpus < 1 else 1.0


def case_limits(problem: Problem, cases: list[Case], times: dict[str, float]) -> list[CaseLimits]:
    """The limits of ``cases``, given the reference's CPU seconds on each (by case id), fitted to the box."""
    limits = problem.limits
    memory, scale = fit_memory(limits.memory_mb << 20), wall_scale()
    return [CaseLimits(max(limits.time_floor_s, limits.time_multiplier * times[c.id]), memory, scale) for c in cases]
