"""Per-case limits, derived from the reference solution's measured CPU times: pure arithmetic, no measuring.

A case's CPU-time limit is ``max(time_floor_s, time_multiplier * reference CPU time)``; the wall-clock cap is
``2 * limit + 1 s``. The times come from :func:`judge.judging.calibrate.reference_times`, which times the reference
through the same worker on this machine.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.package.cases import Case
from judge.package.problem import Problem
from judge.worker.runner import Budget

CLOSE_TO_LIMIT = 1.1
"""a call may run to this multiple of its CPU limit; one that finishes above the limit is re-run once"""


@dataclass(frozen=True)
class CaseLimits:
    cpu_s: float
    memory_bytes: int

    @property
    def wall_s(self) -> float:
        return 2 * self.cpu_s + 1.0

    def budget(self) -> Budget:
        return Budget(self.cpu_s * CLOSE_TO_LIMIT, self.wall_s, self.memory_bytes)


def case_limits(problem: Problem, cases: list[Case], times: dict[str, float]) -> list[CaseLimits]:
    """The limits of ``cases``, given the reference's CPU seconds on each (by case id)."""
    limits = problem.limits
    memory = limits.memory_mb << 20
    return [CaseLimits(max(limits.time_floor_s, limits.time_multiplier * times[c.id]), memory) for c in cases]
