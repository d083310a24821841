"""How much judging one submission may cost, and which cases are not run once it is spent: one policy for every
front end (``judge run``/``submit``, ``judge grade``, the site, notebooks and the platform exports).

Two rules, both derived from the limits the report already shows:

- **a method that keeps hitting a limit stops costing time**: once ``STRIKES`` calls of one method have ended on
  a time or memory limit, the cases still to come that call it are not run; every other method's cases still are,
  so a student whose one method is slow loses that method's cases only, as one whose method is wrong does;
- **a total budget**: the submission may spend the sum of its calls' CPU-time limits in all (on average each call
  its own limit), and a submission with a case not run for it is a time limit, never accepted
  (:func:`judge.judging.verdict.overall`). What a submission spends is its own time, as the limits count it: the larger of its CPU time
  and its wall time less the time it waited for a CPU (:attr:`judge.worker.runner.Outcome.own_s`), per call up
  to its case's limit (what a call may use; the grace the judge gives before it ends one is the judge's), and per
  replacement worker that imports it again; the first import and the warm-up call are the judge's. A case already
  started always finishes under its own limits; the cases after the budget is spent are not run. A submission
  whose every call stays within its case's limit never meets it, and the two calls a stopped
  method costs are charged no more than its limit each.

Before this policy, every case after the second that ended on a limit was not run: one slow method cost the
whole submission, while a wrong one cost only its own cases.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from judge.compat import StrEnum
from judge.judging.limits import CaseLimits
from judge.judging.verdict import Verdict
from judge.package.cases import Case

STRIKES = 2
"""calls of one method ending on a time or memory limit after which its remaining cases are not run"""
LIMIT_VERDICTS = frozenset({Verdict.TIME_LIMIT_EXCEEDED, Verdict.MEMORY_LIMIT_EXCEEDED})


class Why(StrEnum):
    """Why a case was not run (the report's ``not_run.reason``)."""

    METHOD = "method"
    """it calls a method that hit its limits ``STRIKES`` times"""
    BUDGET = "budget"
    """the submission's total budget was spent"""


@dataclass(frozen=True)
class NotRun:
    why: Why
    method: str | None = None
    """for :attr:`Why.METHOD`: the method that was stopped"""


def total_budget_s(cases: list[Case], limits: list[CaseLimits]) -> float:
    """The whole submission's budget: each call's CPU-time limit, summed over every call of every case, so that a
    submission whose every call stays within its limit never spends it (a case's limit holds for each of its
    calls: summing one limit per case let calls that each stayed within theirs spend it, and cases go unrun)."""
    return sum(limit.cpu_s * len(case.calls) for case, limit in zip(cases, limits, strict=True))


@dataclass
class Allowance:
    """The policy's state while one submission is judged, case after case."""

    total_s: float
    strikes: dict[str, int] = field(default_factory=dict)
    """per method, its calls that ended on a time or memory limit so far"""

    def not_run(self, case: Case, spent_s: float) -> NotRun | None:
        """Why ``case`` is not run, having spent ``spent_s`` so far; None: run it."""
        stopped = next((c["method"] for c in case.calls if self.strikes.get(c["method"], 0) >= STRIKES), None)
        if stopped is not None:
            return NotRun(Why.METHOD, stopped)
        if spent_s >= self.total_s:
            return NotRun(Why.BUDGET)
        return None

    def record(self, method: str, verdict: Verdict) -> None:
        """Count a call's verdict against its method."""
        if verdict in LIMIT_VERDICTS:
            self.strikes[method] = self.strikes.get(method, 0) + 1
