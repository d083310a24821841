"""Judge one submission file on a problem: the whole flow from a path to a report.

problem package -> cases -> worker -> result -> comparison -> verdict -> report
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from judge.errors import BadInput
from judge.judging.limits import case_limits
from judge.judging.session import CaseLimits, CaseResult, Session, judge_cases
from judge.judging.verdict import Verdict
from judge.machine import torch_version
from judge.package.cases import Case
from judge.package.problem import Problem
from judge.report.build import build_report
from judge.worker import sandbox
from judge.worker.runner import Launch

CUDA_HOST_MEMORY = 1 << 30
"""extra resident memory allowed on ``--device cuda``: the CUDA context alone takes hundreds of MB on the host"""


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
        outputs = case.outputs(source)
        if outputs is not None:
            return outputs, source
    raise BadInput("no_expected", path=case.path, device=device, slug=slug)


@dataclass(frozen=True)
class Plan:
    """What judging any submission to a problem needs: computed once, shared by every submission judged."""

    problem: Problem
    mode: str
    """``run`` (samples) or ``submit`` (every case)"""
    device: str
    cases: list[Case]
    expected: list[list[Any]]
    """per case, one expected value per call: stays in the judge's process"""
    expected_devices: list[str]
    """per case, the device whose expected values are used"""
    limits: list[CaseLimits]

    @property
    def methods(self) -> list[str]:
        return [m["name"] for m in self.problem.methods]

    @property
    def items(self) -> dict[str, str]:
        return {m["name"]: m.get("item", "item") for m in self.problem.methods}

    @property
    def memory_bytes(self) -> int:
        return (self.problem.limits.memory_mb << 20) + (CUDA_HOST_MEMORY if self.device == "cuda" else 0)


def make_plan(problem: Problem, mode: str, device: str) -> Plan:
    if device == "cuda" and not cuda_available():
        raise BadInput("no_cuda")
    sandbox.level(device)  # probe the layers once, before any worker starts
    cases = problem.samples if mode == "run" else problem.cases
    expected, sources = zip(*(expected_for(c, device, problem.slug) for c in cases)) if cases else ((), ())
    return Plan(problem, mode, device, cases, list(expected), list(sources), case_limits(problem, cases, device))


@dataclass
class Judge:
    """Judges submissions one after another with one way of starting workers (``launch``)."""

    plan: Plan
    launch: Launch = sandbox.start
    level: str = ""
    """the security level of the workers ``launch`` starts, as reports print it (default: :func:`sandbox.level`)"""
    verified: bool = False
    """whether a worker from ``launch`` has shown that it builds every case bit-identically, so later
    submissions skip that check (every worker it starts runs the same code on the same machine)"""

    def judge(self, path: Path, data: bytes,
              on_case: Callable[[int, CaseResult], None] | None = None) -> dict[str, Any]:
        """The report for the submission at ``path`` whose bytes, already read and checked, are ``data``;
        ``on_case`` hears each case's verdict as soon as it is known."""
        plan, started = self.plan, time.monotonic()
        session = Session(path, plan.cases, plan.methods, plan.device, plan.memory_bytes, self.launch, self.verified)
        try:
            results = judge_cases(session, plan.limits, plan.expected, plan.items, on_case)
        finally:
            session.close()
        self.verified = session.verified
        return self._report(path, data, session, results, time.monotonic() - started)

    def unjudgeable(self, path: Path, data: bytes, reason: str) -> dict[str, Any]:
        """The report for a submission no worker can load (unreadable, not Python): a compile error on every
        case, exactly as for a file with a syntax error, and no worker is started."""
        plan = self.plan
        session = Session(path, plan.cases, plan.methods, plan.device, plan.memory_bytes, self.launch)
        session.failed_start = (Verdict.COMPILE_ERROR, {"exc": "NotJudgeable", "msg": reason})
        return self._report(path, data, session, judge_cases(session, plan.limits, plan.expected, plan.items), 0.0)

    def _report(self, path: Path, data: bytes, session: Session, results: list[CaseResult],
                wall_s: float) -> dict[str, Any]:
        plan = self.plan
        environment = {"torch": torch_version(), "device": plan.device,
                       "expected_device": sorted(set(plan.expected_devices)),
                       "security_level": self.level or sandbox.level(plan.device)}
        if session.failed_start:
            environment["startup_error"] = session.failed_start[1]
        return build_report(
            mode=plan.mode, problem=plan.problem,
            submission={"path": str(path), "sha256": hashlib.sha256(data).hexdigest()},
            results=results, expected=plan.expected, environment=environment, wall_s=wall_s,
        )


def judge_file(problem: Problem, path: Path, mode: str, device: str) -> dict[str, Any]:
    data = read_submission(path)
    return Judge(make_plan(problem, mode, device)).judge(path, data)


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
