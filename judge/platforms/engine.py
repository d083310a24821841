"""The one place where the platform front ends reach the judging path: the same :class:`judge.pipeline.Judge`
that ``judge submit`` and ``judge grade`` use, on every case, on the CPU.

A file that cannot be judged (missing, several candidates, not Python) gets the report of a compile error on every
case, as ``judge grade`` gives it; the judge's own failure gets ``internal_error``, never the student's verdict.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from judge.errors import BadInput
from judge.judging.plan import Asked, make_plan
from judge.package.problem import Problem
from judge.pipeline import Judge, OnCase, Submitted, failure_report, judge_guarded

MODE, DEVICE = "submit", "cpu"


def judge_submission(problem: Problem, path: Path, reason: str | None = None,
                     on_case: OnCase | None = None) -> dict[str, Any]:
    """The report for the file at ``path``; ``reason`` says why there is no file to judge (``path`` is then the
    folder it was looked for in). ``on_case`` hears each case's verdict as soon as it is known."""
    submitted = Submitted(path, b"", unjudgeable=reason) if reason is not None else Submitted.read(path)
    try:
        return judge_guarded(submitted, Judge(Asked(problem, MODE, DEVICE)), on_case=on_case)
    except BadInput as exc:  # the problem cannot be judged here: the judge's failure, never the student's verdict
        return failure_report(problem, submitted, MODE, DEVICE, str(exc))


def calibrate(problem: Problem) -> tuple[float, float, int]:
    """Probe the sandbox and time the reference on every case, as the first submission would (an image's build
    step does it once, so that no submission pays for it); returns the smallest and largest CPU-time limit and the
    memory limit in MiB, as they fit this box."""
    plan = make_plan(problem, MODE, DEVICE)
    cpu = [limits.cpu_s for limits in plan.limits]
    return min(cpu), max(cpu), plan.memory_bytes >> 20
