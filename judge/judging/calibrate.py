"""Time the reference solution through the same worker a submission gets, on this machine, once.

The reference's CPU time per case is the median of ``REPETITIONS`` timed runs, in workers forked from one warm
process per confinement that lives as long as the judge's process (:func:`judge.judging.pool.shared`: a fresh
interpreter per problem cost 4 s, most of most problems' calibration). The times are cached per problem
content, torch version, device and machine, so calibration is paid once: ``$JUDGE_CACHE`` (default
``$XDG_CACHE_HOME/torch-judge`` or ``~/.cache/torch-judge``), one file ``<slug>-<device>-<content>-<machine>.json``
each, its times under opaque keys (:func:`_keys`). With ``JUDGE_CALIBRATION=pinned`` a calibration of the same
content measured on another machine is used as it is: an image calibrated once when it was built and then run as
a fresh container per submission, on whatever host (Gradescope, PrairieLearn), keeps its limits instead of
recalibrating for every submission.
:func:`judge.judging.limits.case_limits` turns them into limits.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import platform
import statistics
from dataclasses import dataclass
from pathlib import Path

from judge.errors import InternalError
from judge.judging import pool
from judge.judging.limits import CaseLimits
from judge.judging.session import Session, judge_cases
from judge.judging.verdict import Verdict
from judge.machine import cpu_model, torch_version
from judge.package.problem import Problem
from judge.places import cache_dir
from judge.settings import CALIBRATION
from judge.worker import probe
from judge.worker.confinement import Confinement
from judge.worker.launch import Launch

REPETITIONS = 3
CACHE_FORMAT = "3"
"""in every cache key: a calibration stored before sessions checked the workers' builds (format 1) proves no
build here, so it is measured again; one keyed by case id (format 2) named every hidden case"""
CALIBRATION_LIMITS = CaseLimits(cpu_s=60.0, memory_bytes=8 << 30)


def _sha256(parts: list[str]) -> bytes:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() + b"\0")
    return h.digest()


def _digest(parts: list[str]) -> str:
    return _sha256(parts).hex()[:16]


def _parts(problem: Problem, device: str) -> list[str]:
    """What the times depend on besides the machine. Case ids too: each time is stored under a key drawn from its
    case's id, and a renamed case keeps its spec."""
    parts = [CACHE_FORMAT, torch_version(), device, problem.reference.read_bytes().decode("utf-8", "replace")]
    return parts + [case.id + "\0" + json.dumps(case.spec(), sort_keys=True) for case in problem.cases]


def _keys(problem: Problem, parts: list[str]) -> dict[str, str]:
    """Each case's key in a stored calibration, by case id: an HMAC of the id under a key drawn from ``parts``
    (:func:`_parts`: the reference and every case), which only whoever holds them can compute. A PrairieLearn
    image, public by design, keeps its calibration; keyed by id, it named every hidden case."""
    secret = _sha256(["calibration keys", *parts])
    return {case.id: hmac.new(secret, case.id.encode(), "sha256").hexdigest()[:16] for case in problem.cases}


def _machine() -> str:
    return _digest([platform.machine(), cpu_model(), str(os.cpu_count())])


def calibration_scope() -> str:
    """``machine`` (the default): calibrate on each machine; ``pinned``: use a calibration of the same problem,
    torch and device measured on any machine, calibrating only where there is none (:data:`CALIBRATION`)."""
    return CALIBRATION.choice()


@dataclass(frozen=True)
class Calibration:
    times: dict[str, float]
    """the reference's CPU seconds per case id"""
    builds_checked: bool
    """whether a worker on this machine has built every case bit-identically to its ``build_sha256``: a
    calibration measured here ran through a session, whose checker showed it before the reference ran (else
    calibration fails); one measured on another machine (pinned) shows nothing about this one"""


def _stored(problem: Problem, device: str) -> tuple[Path, dict[str, str], dict[str, float] | None]:
    """Where this machine's calibration goes, each case's key in it (:func:`_keys`), and the stored one to use
    (this machine's, or when pinned the newest of another machine's), if any."""
    parts = _parts(problem, device)
    stem = f"{problem.slug}-{device}-{_digest(parts)}"
    path, keys = cache_dir() / f"{stem}-{_machine()}.json", _keys(problem, parts)
    candidates = [path]
    if calibration_scope() == "pinned":
        others = [p for p in cache_dir().glob(f"{stem}-*.json") if p != path]
        candidates += sorted(others, key=lambda p: p.stat().st_mtime, reverse=True)
    for candidate in candidates:
        try:
            stored = json.loads(candidate.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(stored, dict) and set(keys.values()) <= stored.keys():
            return path, keys, {case_id: stored[key] for case_id, key in keys.items()}
    return path, keys, None


def _measure(problem: Problem, device: str, confinement: Confinement) -> dict[str, float]:
    with pool.shared(confinement) as workers:
        return _timed(problem, device, workers.launch)


def _timed(problem: Problem, device: str, launch: Launch) -> dict[str, float]:
    cases = problem.cases
    session = Session(problem.reference.read_bytes(), cases, [m["name"] for m in problem.methods], device,
                      CALIBRATION_LIMITS.memory_bytes, launch)
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
    """The reference's CPU seconds per case id (:func:`calibration`)."""
    return calibration(problem, device, confinement).times


def calibration(problem: Problem, device: str, confinement: Confinement | None = None) -> Calibration:
    """The calibration from the cache, or measured under ``confinement`` (default: what
    :func:`judge.worker.probe.confinement` found for ``device``, probed once per process) and stored."""
    path, keys, stored = _stored(problem, device)
    if stored is not None:
        return Calibration(stored, path.is_file())
    times = _measure(problem, device, confinement or probe.confinement(device))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({keys[case_id]: t for case_id, t in times.items()}, indent=1, sort_keys=True))
        tmp.replace(path)
    except OSError:
        pass  # an unwritable cache only costs a recalibration next time
    return Calibration(times, True)
