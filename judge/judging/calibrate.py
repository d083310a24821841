"""Time the reference solution through the same worker a submission gets, on this machine, once.

The reference's CPU time per case is the median of ``REPETITIONS`` timed runs. The times are cached per problem
content, machine, torch version and device, so calibration is paid once: ``$JUDGE_CACHE`` (default
``$XDG_CACHE_HOME/torch-judge`` or ``~/.cache/torch-judge``). :func:`judge.judging.limits.case_limits` turns them
into limits.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import statistics

from judge.errors import InternalError
from judge.judging.limits import CaseLimits
from judge.judging.session import Session, judge_cases
from judge.judging.verdict import Verdict
from judge.machine import cpu_model, torch_version
from judge.package.problem import Problem
from judge.places import cache_dir
from judge.worker import probe
from judge.worker.confinement import Confinement
from judge.worker.launch import fresh

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


def _measure(problem: Problem, device: str, confinement: Confinement) -> dict[str, float]:
    cases = problem.cases
    session = Session(problem.reference, cases, [m["name"] for m in problem.methods], device,
                      CALIBRATION_LIMITS.memory_bytes, fresh(confinement))
    times: dict[str, list[float]] = {c.id: [] for c in cases}
    try:
        for _ in range(REPETITIONS):
            for result in judge_cases(session, [CALIBRATION_LIMITS] * len(cases)):
                if result.verdict is not Verdict.ACCEPTED:
                    failed = next(c for c in result.calls if c.verdict is not Verdict.ACCEPTED)
                    raise InternalError("reference_failed", case=result.case.id,
                                        reason=f"{failed.verdict.value}: {failed.error}")
                times[result.case.id].append(result.cpu_s)
    finally:
        session.close()
    return {case_id: statistics.median(samples) for case_id, samples in times.items()}


def reference_times(problem: Problem, device: str, confinement: Confinement | None = None) -> dict[str, float]:
    """The reference's CPU seconds per case id, from the cache or measured under ``confinement`` (default: what
    :func:`judge.worker.probe.confinement` found for ``device``, probed once per process)."""
    path = cache_dir() / f"{problem.slug}-{device}-{_fingerprint(problem, device)}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        pass
    times = _measure(problem, device, confinement or probe.confinement(device))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(times, indent=1))
        tmp.replace(path)
    except OSError:
        pass  # an unwritable cache only costs a recalibration next time
    return times
