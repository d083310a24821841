"""Which cases are not run (:mod:`judge.judging.allowance`): a slow method costs only its own cases, and the whole
submission stops at a total budget derived from the limits. Driven here by a scripted session, so every figure is
exact; ``tests/test_judge_verdicts.py`` proves the same through ``judge submit`` with real workers."""

from __future__ import annotations

from pathlib import Path

from judge.judging.allowance import STRIKES, Allowance, NotRun, Why, total_budget_s
from judge.judging.limits import CaseLimits
from judge.judging.session import CallResult, judge_cases
from judge.judging.verdict import Verdict, overall
from judge.package.cases import Case
from judge.report.build import build_report

TLE, OK, WA = Verdict.TIME_LIMIT_EXCEEDED, Verdict.ACCEPTED, Verdict.WRONG_ANSWER


def _case(number: int, *methods: str, hidden: bool = True) -> Case:
    return Case(f"{number:02d}", "hidden" if hidden else "sample", Path("x.json"), f"case {number}", {},
                [{"method": m, "args": []} for m in methods], None, {}, {}, [])


class Scripted:
    """A session whose every call of a method ends as its script says, costing the seconds it says."""

    def __init__(self, cases: list[Case], script: dict[str, tuple[Verdict, float]]):
        self.cases, self.script, self.spent_s, self.called = cases, script, 0.0, []

    def call(self, case_index: int, call_index: int, limits: CaseLimits, check) -> CallResult:
        method = self.cases[case_index].calls[call_index]["method"]
        verdict, seconds = self.script[method]
        self.spent_s += seconds
        self.called.append(case_index)
        return CallResult(method, verdict, cpu_s=seconds)


def _judged(cases: list[Case], script: dict[str, tuple[Verdict, float]], limit_s: float = 1.0):
    session = Scripted(cases, script)
    return session, judge_cases(session, [CaseLimits(limit_s, 1 << 30)] * len(cases))


def test_a_slow_method_costs_only_the_cases_that_call_it():
    cases = [_case(1, "slow", "fine"), _case(2, "fine"), _case(3, "slow"), _case(4, "fine", "slow"), _case(5, "fine"),
             _case(6, "other")]
    session, results = _judged(cases, {"slow": (TLE, 1.1), "fine": (OK, 0.01), "other": (OK, 0.01)})
    assert [r.verdict for r in results] == [TLE, OK, TLE, None, OK, OK]
    assert results[3].not_run == NotRun(Why.METHOD, "slow") and not results[3].calls  # none of its calls ran
    assert session.called == [0, 1, 2, 4, 5]


def test_a_wrong_method_and_a_slow_one_now_score_alike():
    """Under the old rule, after two limits every later case was not run, so a slow method scored 0 where a wrong one
    kept the cases that do not call it."""
    cases = [_case(n, "a" if n % 3 else "b") for n in range(1, 13)]
    _, slow = _judged(cases, {"a": (TLE, 1.1), "b": (OK, 0.01)})
    _, wrong = _judged(cases, {"a": (WA, 0.01), "b": (OK, 0.01)})
    assert sum(r.verdict is OK for r in slow) == sum(r.verdict is OK for r in wrong) == 4


def test_the_total_budget_is_every_calls_limit_and_a_case_past_it_fails_the_submission():
    """A case's limit holds for each of its calls, so the budget sums one limit per call: calls that each stay just
    inside theirs never spend it (red team's 128 slept so through the old budget, one limit per case, and was
    accepted with twelve hidden cases unrun). A case left unrun fails the submission: it is a time limit."""
    cases = [_case(n, "m", "m") for n in range(1, 6)]
    session, results = _judged(cases, {"m": (OK, 0.9)}, limit_s=1.0)  # 1.8 s a case against 1 s a call
    assert total_budget_s(cases, [r.limits for r in results]) == 10.0
    assert [r.verdict for r in results] == [OK] * 5 and round(session.spent_s, 6) == 9.0
    assert Allowance(1.0).not_run(cases[0], 1.0) == NotRun(Why.BUDGET)
    assert overall([OK, OK, None]) is TLE and overall([OK, WA, None]) is WA and overall([None, OK]) is TLE
    assert overall([OK, OK]) is OK


def test_a_submission_within_every_limit_is_judged_on_every_case():
    cases = [_case(n, "m", "m") for n in range(1, 30)]
    _, results = _judged(cases, {"m": (OK, 0.5)}, limit_s=1.0)  # each case exactly at its limit
    assert all(r.verdict is OK for r in results)


def test_strikes_count_calls_of_one_method():
    allowance = Allowance(100.0)
    for _ in range(STRIKES - 1):
        allowance.record("m", Verdict.MEMORY_LIMIT_EXCEEDED)
    allowance.record("m", Verdict.RUNTIME_ERROR)  # a crash is no limit: the method is not stopped for it
    assert allowance.not_run(_case(1, "m"), 0.0) is None
    allowance.record("m", TLE)
    assert allowance.not_run(_case(1, "other", "m"), 0.0) == NotRun(Why.METHOD, "m")
    assert allowance.not_run(_case(1, "other"), 0.0) is None


class _Problem:
    slug, title = "p", "P"


def _report(results, exact: bool = False) -> dict:
    return build_report(mode="submit", problem=_Problem(), submission={"path": "s.py", "sha256": ""},
                        results=results, expected=[], environment={}, wall_s=3.2, exact=exact)


def test_a_case_not_run_shows_nothing_measured_and_says_why():
    cases = [_case(1, "slow"), _case(2, "slow"), _case(3, "slow"), _case(4, "fine")]
    _, results = _judged(cases, {"slow": (TLE, 1.1), "fine": (OK, 0.01)})
    report = _report(results)
    not_run = report["tests"][2]
    assert not_run["extra_data"]["verdict"] is None
    assert (not_run["extra_data"]["cpu_time_s"], not_run["extra_data"]["peak_memory_mb"]) == (None, None)
    assert "execution_time" not in not_run and not not_run["extra_data"]["coarse"]
    assert not_run["extra_data"]["not_run"] == {"reason": "method", "method": "slow"}
    assert not_run["output"].startswith("not run: slow ended on a time or memory limit in 2 cases")
    assert report["judge"]["time_budget_s"] == 4.0
    ran = report["tests"][3]["extra_data"]
    assert (ran["cpu_time_s"], ran["coarse"]) == (0.25, True)  # hidden: the quarter of the limit it fell in


def test_an_exact_report_keeps_hidden_figures_and_coarsening_it_gives_the_learners():
    from judge.report.build import coarsened

    _, results = _judged([_case(1, "fine", hidden=False), _case(2, "fine")], {"fine": (OK, 0.0123)})
    exact, learner = _report(results, exact=True), _report(results)
    assert [t["extra_data"]["cpu_time_s"] for t in exact["tests"]] == [0.0123, 0.0123]
    assert [t["extra_data"]["cpu_time_s"] for t in learner["tests"]] == [0.0123, 0.25]
    assert (exact["execution_time"], learner["execution_time"]) == (3.2, 4.0)
    assert coarsened(exact) == learner and coarsened(learner) == learner


def test_the_cases_not_run_are_named_in_runs():
    from judge.report.render import case_numbers, render

    assert case_numbers(["6", "7", "8", "10", "12", "13"]) == "#6-#8, #10, #12-#13"
    cases = [_case(1, "slow"), _case(2, "slow")] + [_case(n, "slow") for n in range(3, 7)] + [_case(7, "fine")]
    _, results = _judged(cases, {"slow": (TLE, 1.1), "fine": (OK, 0.01)})
    text = render(_report(results), "text")
    assert "  #3-#6: not run: slow ended on a time or memory limit in 2 cases" in text
