"""The plan: what judging any submission to a problem needs, computed once and shared by every submission judged
(cases, expected values, the check of each method, limits, the confinement, the device).

:func:`make_plan` makes it for a problem's own cases (``run``: the samples; ``submit``: every case),
:func:`custom_plan` for a case file of the learner's own; an :class:`Asked` makes one of them when first needed.
:mod:`judge.pipeline` turns a plan and a submission into a report.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Callable

from judge.errors import BadInput
from judge.judging.calibrate import calibration
from judge.judging.compare import Comparison, compare
from judge.judging.limits import CaseLimits, case_limits, fit_memory
from judge.machine import gpus
from judge.package.cases import Case, load_own_case
from judge.package.problem import Problem
from judge.system_words import Native
from judge.worker import probe
from judge.worker.confinement import Confinement

CUSTOM = "custom"
"""the visibility of a learner's own case (``judge run --case``): shown in full like a sample"""
CUDA_HOST_MEMORY = 1 << 30
"""extra resident memory allowed on ``--device cuda``: the CUDA context alone takes hundreds of MB on the host"""


def cuda_available() -> bool:
    return bool(gpus())


def require_device(device: str) -> None:
    """``cuda`` without a GPU torch can use is bad input, said before any work starts."""
    if device == "cuda" and not cuda_available():
        raise BadInput("no_cuda")


def expected_for(case: Case, device: str, slug: str) -> tuple[list[Any], str]:
    """The case's expected outputs on ``device``, falling back to the CPU ones (and saying so)."""
    for source in (device, "cpu"):
        outputs = case.outputs(source)
        if outputs is not None:
            return outputs, source
    raise BadInput("no_expected", path=case.path, device=device, slug=slug)


@dataclass(frozen=True, eq=False)
class Plan:
    """What judging any submission to a problem needs: computed once, shared by every submission judged. Two plans
    are the same only when they are one object (a warm pool remembers which plans its workers have checked)."""

    problem: Problem
    mode: str
    """``run`` (samples) or ``submit`` (every case)"""
    device: str
    cases: list[Case]
    expected: list[list[Any]] | None
    """per case, one expected value per call: stays in the judge's process (None: a learner's own case without
    expected values, whose outputs are only shown)"""
    expected_devices: list[str]
    """per case, the device whose expected values are used"""
    limits: list[CaseLimits]
    confinement: Confinement
    """the layers every worker of this plan is started with, probed once when the plan was made"""
    checks: dict[str, Callable[..., Comparison]]
    """per method, the comparison with its settings bound: ``partial(compare, item=…, tolerance=…)``"""
    builds_checked: bool = False
    """whether workers on this machine are known to build every case as ``judge gen`` did (its calibration was
    measured here), so that no submission's session starts a checker to show it again"""

    @property
    def methods(self) -> list[str]:
        return [m["name"] for m in self.problem.methods]

    @property
    def memory_bytes(self) -> int:
        return fit_memory(self.problem.limits.memory_mb << 20) + (CUDA_HOST_MEMORY if self.device == "cuda" else 0)


def checks_for(problem: Problem) -> dict[str, Callable[..., Comparison]]:
    """Each method's comparison, prepared once: what it calls the entries of a list, and the problem's tolerance."""
    return {m["name"]: functools.partial(compare, item=m.get("item", "item"), tolerance=problem.tolerance)
            for m in problem.methods}


def make_plan(problem: Problem, mode: str, device: str) -> Plan:
    """Probe the confinement, then time the reference under it (once per machine: cached), then the plan."""
    require_device(device)
    confinement = probe.confinement(device)
    cases = problem.samples if mode == "run" else problem.cases
    expected, sources = zip(*(expected_for(c, device, problem.slug) for c in cases)) if cases else ((), ())
    calibrated = calibration(problem, device, confinement)
    limits = case_limits(problem, cases, calibrated.times)
    return Plan(problem, mode, device, cases, list(expected), list(sources), limits, confinement, checks_for(problem),
                calibrated.builds_checked)


def custom_plan(problem: Problem, path: Path, device: str) -> Plan:
    """``judge run --case FILE``: a case file of the learner's own, in the package's format and validated like
    the package's (one-line errors naming the field). Its ``expected`` outputs are optional: without them the
    calls' values are only shown (``Plan.expected`` is None). Its limits are those of the problem's slowest case,
    since no reference time was measured on it."""
    require_device(device)
    if not path.is_file():
        raise BadInput("case_unreadable", path=path, reason=Native("no such file", "os_enoent"))
    confinement = probe.confinement(device)
    case = load_own_case(path, CUSTOM, {m["name"] for m in problem.methods})
    found = next((s for s in (device, "cpu") if case.outputs(s) is not None), None)
    times = calibration(problem, device, confinement).times
    limits = case_limits(problem, [case], {case.id: max(times.values(), default=0.0)})
    return Plan(problem, "run", device, [case], [case.outputs(found)] if found else None, [found] if found else [],
                limits, confinement, checks_for(problem))


@dataclass(frozen=True, eq=False)
class Asked:
    """A judgement as a front end asks for it before any plan is made (``judge run``/``submit``, a notebook, a
    platform's autograder, the site). It names the judgement, so that a report can say what failed even when the
    plan cannot be made, and it makes the plan when first asked (:attr:`plan`, kept for the next submission)."""

    problem: Problem
    mode: str
    """``run`` (samples) or ``submit`` (every case)"""
    device: str
    case: Path | None = None
    """a case file of the learner's own (``judge run --case``), judged instead of the problem's cases"""

    @cached_property
    def plan(self) -> Plan:
        if self.case is not None:
            return custom_plan(self.problem, self.case, self.device)
        return make_plan(self.problem, self.mode, self.device)
