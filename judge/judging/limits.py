"""Per-case limits, derived from the reference solution timed through the same worker on this machine.

A case's CPU-time limit is ``max(time_floor_s, time_multiplier * reference CPU time)`` (median of
``REPETITIONS`` timed runs); the wall-clock cap is ``2 * limit + 1 s``. The reference's times are cached per
problem content, machine, torch version and device, so calibration is paid once:
``$JUDGE_CACHE`` (default ``$XDG_CACHE_HOME/torch-judge`` or ``~/.cache/torch-judge``).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import statistics

from judge.errors import InternalError
from judge.judging.session import CaseLimits, Session, judge_cases
from judge.judging.verdict import Verdict
from judge.machine import cpu_model, torch_version
from judge.package.problem import Problem
from judge.places import cache_dir

REPETITIONS = 3
CALIBRATION_LIMITS = CaseLimits(cpu_s=60.0, memory_bytes=8 << 30)


def _fingerprint(problem: Problem, device: str) -> str:
    h = hashlib.sha256()
    for part in (platform.machine(), cpu_model(), str(os.cpu_count()), torch_version(), device,
                 problem.reference.read_bytes().decode("utf-8", "replace")):
        h.update(part.encode() + b"\0")
    for case in problem.cases:  # ids too: the times are keyed by id, and a renamed case keeps its spec
        h.update(case.id.encode() + b"\0" + json.dumps(case.spec(), sort_keys=True).encode())
    return h.hexdigest()[:20]


def _measure(problem: Problem, device: str) -> dict[str, float]:
    cases = problem.cases
    session = Session(problem.reference, cases, [m["name"] for m in problem.methods], device,
                      CALIBRATION_LIMITS.memory_bytes)
    times: dict[str, list[float]] = {c.id: [] for c in cases}
    try:
        for _ in range(REPETITIONS):
            for result in judge_cases(session, [CALIBRATION_LIMITS] * len(cases), None, {}):
                if result.verdict is not Verdict.ACCEPTED:
                    failed = next(c for c in result.calls if c.verdict is not Verdict.ACCEPTED)
                    raise InternalError("reference_failed", case=result.case.id,
                                        reason=f"{failed.verdict.value}: {failed.error}")
                times[result.case.id].append(result.cpu_s)
    finally:
        session.close()
    return {case_id: statistics.median(samples) for case_id, samples in times.items()}


def reference_times(problem: Problem, device: str) -> dict[str, float]:
    path = cache_dir() / f"{problem.slug}-{device}-{_fingerprint(problem, device)}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        pass
    times = _measure(problem, device)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(times, indent=1))
        tmp.replace(path)
    except OSError:
        pass  # an unwritable cache only costs a recalibration next time
    return times


def case_limits(problem: Problem, cases: list, device: str) -> list[CaseLimits]:
    limits = problem.limits
    times = reference_times(problem, device)
    memory = limits.memory_mb << 20
    return [CaseLimits(max(limits.time_floor_s, limits.time_multiplier * times[c.id]), memory) for c in cases]
