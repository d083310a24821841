"""Per-case limits, derived from the reference solution timed through the same worker on this machine, and
fitted into the box (container) the judge runs in.

A case's CPU-time limit is ``max(time_floor_s, time_multiplier * reference CPU time)`` (median of
``REPETITIONS`` timed runs); the wall-clock cap is ``2 * limit + 1 s``. The reference's times are cached per
problem content, torch version, device and machine, so calibration is paid once:
``$JUDGE_CACHE`` (default ``$XDG_CACHE_HOME/torch-judge`` or ``~/.cache/torch-judge``), one file
``<slug>-<device>-<content>-<machine>.json`` each. With ``JUDGE_CALIBRATION=pinned`` a calibration of the same
content measured on another machine is used as it is: an image calibrated once when it was built and then run
as a fresh container per submission, on whatever host (Gradescope, PrairieLearn), keeps its limits instead of
recalibrating for every submission.

Inside a box (a cgroup limit on memory or CPU above the judge, :func:`judge.worker.cgroup.box`) the limits fit
it, so the judge's own verdicts come before the container's OOM killer or timeout: a worker's memory limit is at
most the box's memory less ``BOX_RESERVE`` (the judge's own process, the worker's mapped libraries and the
headroom of its data limit), and under a CPU quota below one CPU the wall-clock caps stretch by its inverse.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import statistics
from pathlib import Path

from judge.errors import BadInput, InternalError
from judge.judging.session import CaseLimits, Session, judge_cases
from judge.judging.verdict import Verdict
from judge.machine import cpu_model, torch_version
from judge.package.problem import Problem
from judge.places import cache_dir
from judge.worker import sandbox
from judge.worker.cgroup import Box, box

REPETITIONS = 3
CALIBRATION_LIMITS = CaseLimits(cpu_s=60.0, memory_bytes=8 << 30)
CALIBRATION_ENV = "JUDGE_CALIBRATION"
CALIBRATIONS = ("machine", "pinned")
"""``machine`` (the default): calibrate on each machine; ``pinned``: use a calibration of the same problem, torch
and device measured on any machine, calibrating only where there is none"""
BOX_RESERVE = 416 << 20
"""what a box must hold beside a worker's memory limit where no cgroup of its own bounds the worker: the judge's
own process (about 60 MiB), the worker's file-backed pages (torch's libraries, about 80 MiB, which its resident
set counts but its data limit does not) and the 256 MiB by which the worker's data limit exceeds its memory limit
(:data:`judge.worker.sandbox.DATA_HEADROOM`). The resident-set poll alone is no bound in a box: under a CPU quota
the whole box, the judge included, is throttled once the worker has spent the quota's period, so a worker that
touches pages fast can run tens of milliseconds unobserved."""
BOX_RESERVE_CGROUP = 160 << 20
"""the same where every worker has a cgroup of its own, which charges all its pages: the judge's process and
margin"""
BOX_MIN_MEMORY = 128 << 20
"""a worker's memory limit is never fitted below this (a box that small leaves torch no room: doctor says so)"""


def _digest(parts: list[str]) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() + b"\0")
    return h.hexdigest()[:16]


def _content(problem: Problem, device: str) -> str:
    """What the times depend on besides the machine. Case ids too: the times are keyed by id, and a renamed case
    keeps its spec."""
    parts = [torch_version(), device, problem.reference.read_bytes().decode("utf-8", "replace")]
    parts += [case.id + "\0" + json.dumps(case.spec(), sort_keys=True) for case in problem.cases]
    return _digest(parts)


def _machine() -> str:
    return _digest([platform.machine(), cpu_model(), str(os.cpu_count())])


def calibration_scope() -> str:
    scope = os.environ.get(CALIBRATION_ENV) or CALIBRATIONS[0]
    if scope not in CALIBRATIONS:
        raise BadInput("bad_calibration", env=CALIBRATION_ENV, value=scope, choices=", ".join(CALIBRATIONS))
    return scope


def _stored(problem: Problem, device: str) -> tuple[Path, dict[str, float] | None]:
    """Where this machine's calibration goes, and the stored one to use (this machine's, or when pinned the
    newest of another machine's), if any."""
    stem = f"{problem.slug}-{device}-{_content(problem, device)}"
    path = cache_dir() / f"{stem}-{_machine()}.json"
    candidates = [path]
    if calibration_scope() == "pinned":
        others = [p for p in cache_dir().glob(f"{stem}-*.json") if p != path]
        candidates += sorted(others, key=lambda p: p.stat().st_mtime, reverse=True)
    for candidate in candidates:
        try:
            times = json.loads(candidate.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(times, dict) and {c.id for c in problem.cases} <= times.keys():
            return path, times
    return path, None


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
    path, stored = _stored(problem, device)
    if stored is not None:
        return stored
    times = _measure(problem, device)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(times, indent=1))
        tmp.replace(path)
    except OSError:
        pass  # an unwritable cache only costs a recalibration next time
    return times


def fit_memory(memory_bytes: int, found: Box | None = None, grouped: bool | None = None) -> int:
    """A worker's memory limit, lowered to fit the box (``found``, default: this judge's) where it must;
    ``grouped``: whether each worker has a memory cgroup of its own (default: whether the confinement here has)."""
    found = box() if found is None else found
    if found.memory_bytes is None:
        return memory_bytes
    if grouped is None:
        grouped = bool(sandbox.confinement().cgroup)
    reserve = BOX_RESERVE_CGROUP if grouped else BOX_RESERVE
    return max(BOX_MIN_MEMORY, min(memory_bytes, found.memory_bytes - reserve))


def wall_scale(found: Box | None = None) -> float:
    """How much longer than usual a wall-clock cap must be: a quota of half a CPU doubles it."""
    found = box() if found is None else found
    return 1.0 / found.cpus if found.cpus is not None and 0 < found.cpus < 1 else 1.0


def case_limits(problem: Problem, cases: list, device: str) -> list[CaseLimits]:
    limits = problem.limits
    times = reference_times(problem, device)
    memory, scale = fit_memory(limits.memory_mb << 20), wall_scale()
    return [CaseLimits(max(limits.time_floor_s, limits.time_multiplier * times[c.id]), memory, scale) for c in cases]
