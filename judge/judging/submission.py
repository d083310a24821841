"""Judge one submission file on a problem: the whole flow from a path to a report.

problem package -> cases -> worker -> result -> comparison -> verdict -> report
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from judge.errors import BadInput
from judge.judging.limits import case_limits, torch_version
from judge.judging.session import Session, judge_cases
from judge.package.cases import Case
from judge.package.problem import Problem
from judge.report.build import build_report
from judge.worker import sandbox

MODES = {"run": "samples", "submit": "all"}


def read_submission(path: Path) -> bytes:
    """The submission's bytes, or a :class:`BadInput` saying in one line why they cannot be judged."""
    if not path.exists():
        raise BadInput("file_missing", path=path)
    if path.is_dir():
        raise BadInput("file_is_dir", path=path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BadInput("file_unreadable", path=path, reason=exc.strerror) from None
    if path.suffix != ".py":
        raise BadInput("file_not_python", path=path, reason="its name does not end in .py")
    if b"\0" in data:
        raise BadInput("file_not_python", path=path, reason="it contains NUL bytes, so it is binary")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput("file_not_python", path=path, reason="it is not UTF-8 text") from None
    return data


def cuda_available() -> bool:
    """Asked of a throwaway interpreter, so the judge itself never imports torch."""
    probe = subprocess.run([sys.executable, "-c", "import torch; print(torch.cuda.is_available())"],
                           capture_output=True, text=True, timeout=120)
    return probe.stdout.strip() == "True"


def expected_for(case: Case, device: str, slug: str) -> tuple[list[Any], str]:
    """The case's expected outputs on ``device``, falling back to the CPU ones (and saying so)."""
    for source in (device, "cpu"):
        if source in case.expected:
            return case.expected[source]["outputs"], source
    raise BadInput("no_expected", path=case.path, device=device, slug=slug)


def judge_file(problem: Problem, path: Path, mode: str, device: str) -> dict[str, Any]:
    data = read_submission(path)
    if device == "cuda" and not cuda_available():
        raise BadInput("no_cuda")
    security_level = sandbox.level(device)  # probed once, before any worker starts
    started = time.monotonic()
    cases = problem.samples if mode == "run" else problem.cases
    expected, sources = zip(*(expected_for(c, device, problem.slug) for c in cases)) if cases else ((), ())
    limits = case_limits(problem, cases, device)
    memory = problem.limits.memory_mb << 20
    session = Session(path, cases, [m["name"] for m in problem.methods], device, memory)
    items = {m["name"]: m.get("item", "item") for m in problem.methods}
    try:
        results = judge_cases(session, limits, list(expected), items)
    finally:
        session.close()
    environment = {"torch": torch_version(), "device": device, "expected_device": sorted(set(sources)),
                   "security_level": security_level}
    if session.failed_start:
        environment["startup_error"] = session.failed_start[1]
    return build_report(
        mode=mode, problem=problem,
        submission={"path": str(path), "sha256": hashlib.sha256(data).hexdigest()},
        results=results, expected=list(expected), environment=environment, wall_s=time.monotonic() - started,
    )


def failure_report(problem: Problem | None, path: Path, mode: str, device: str, reason: str) -> dict[str, Any]:
    """The report written when the judge itself failed: the verdict is ``internal_error``, never the learner's."""
    return build_report(
        mode=mode, problem=problem or _Unknown(), submission={"path": str(path), "sha256": ""},
        results=[], expected=[], environment={"torch": torch_version(), "device": device, "expected_device": [],
                                               "security_level": sandbox.level(device)},
        wall_s=0.0, judge_error=reason,
    )


class _Unknown:
    slug = title = "unknown"
