"""The fast path of mutant judging (:mod:`judge.author.mutation.trusted_judge`) decides a mutant only where the
confined judge decides it the same way, and hands back everything out of the ordinary."""

from __future__ import annotations

import dataclasses
import time

import pytest

from judge.author.mutation.mutant_judge import Pool, kill_of
from judge.author.mutation.mutants import mutants
from judge.author.mutation.trusted_judge import UNDECIDED, TrustedRunner
from judge.judging.plan import make_plan
from judge.package.problem import find_problem

AGREEMENT = ("conv-channel-health", "backward-signal-flow")
"""problems whose every mutant is judged both ways: a conv kind, a model trained a step, float rules and strings"""
DECIDED_SHARE = 0.9
"""the fast path must decide at least this share of a problem's mutants, or it saves nothing"""
PROBLEM = "dead-relu-detector"


@pytest.fixture(scope="module")
def runner():
    trusted = TrustedRunner()
    yield trusted
    trusted.close()


def _fast(runner: TrustedRunner, plan, source: str):
    decided = runner.first_failure(plan, source)
    return decided if decided is UNDECIDED or decided is None else kill_of(decided)


@pytest.mark.timeout(900)
@pytest.mark.parametrize("slug", AGREEMENT)
def test_every_mutant_the_fast_path_decides_gets_the_confined_judge_s_verdict(runner, slug):
    problem = find_problem(slug)
    plan = make_plan(problem, "submit", "cpu")
    made = mutants(problem.reference.read_text())
    with Pool(2, fast=False) as confined:
        expected = confined.first_failures([(plan, m.id, m.source) for m in made])
    fast = [_fast(runner, plan, m.source) for m in made]
    decided = [(m.id, f, e) for m, f, e in zip(made, fast, expected) if f is not UNDECIDED]
    assert [d for d in decided if d[1] != d[2]] == []
    assert len(decided) >= DECIDED_SHARE * len(made), f"{len(decided)} of {len(made)} decided"
    assert None in expected and any(f is None for _, f, _ in decided), "mutants that pass every case are decided too"


REFERENCE = find_problem(PROBLEM).reference.read_text()
FIRST_METHOD = "    def detect_dead_neurons(self, model: nn.Module, x: torch.Tensor) -> List[float]:\n"


def _with_first_line(line: str) -> str:
    """The reference with ``line`` run first in its first method."""
    assert FIRST_METHOD in REFERENCE
    return REFERENCE.replace(FIRST_METHOD, FIRST_METHOD + f"        {line}\n")


@pytest.mark.parametrize("source", [
    pytest.param(_with_first_line("while True: pass"), id="an endless loop runs past the wall-clock limit"),
    pytest.param(_with_first_line("import os; os._exit(3)"), id="the process ends itself"),
    pytest.param(_with_first_line("import time; t = time.process_time()\n"
                                  "        while time.process_time() - t < 0.8: pass"), id="a call near its CPU limit"),
    pytest.param(REFERENCE + "\nraise ValueError('at import')\n", id="the import fails"),
    pytest.param(_with_first_line("x = torch.zeros(200_000_000)"), id="a call near its memory limit"),
])
def test_what_is_out_of_the_ordinary_goes_back_to_confined_workers(runner, source):
    plan = make_plan(find_problem(PROBLEM), "submit", "cpu")
    started = time.monotonic()
    assert runner.first_failure(plan, source) is UNDECIDED
    assert time.monotonic() - started < 30
    assert runner.first_failure(plan, REFERENCE) is None, "the next mutant is judged as usual"


def test_a_mutant_that_changes_torch_s_global_state_is_judged_then_its_process_replaced(runner):
    plan = make_plan(find_problem(PROBLEM), "submit", "cpu")
    assert runner.first_failure(plan, REFERENCE) is None
    before = runner.process.pid
    changed = "import torch\ntorch.set_default_dtype(torch.float64)\n" + REFERENCE
    assert runner.first_failure(plan, changed) is not UNDECIDED
    assert runner.process is None, "a runner whose torch settings a mutant changed is not used again"
    assert runner.first_failure(plan, REFERENCE) is None and runner.process.pid != before


def test_a_wrong_answer_names_the_case_the_method_and_the_field(runner):
    plan = make_plan(find_problem(PROBLEM), "submit", "cpu")
    wrong = REFERENCE.replace("return 'use_leaky_relu'", "return 'reinitialize'")
    kill = _fast(runner, plan, wrong)
    assert kill is not UNDECIDED and kill is not None
    assert (kill.verdict, kill.method) == ("wrong_answer", "suggest_fix") and kill.case.startswith("sample/")


def test_cases_this_process_does_not_build_as_judge_gen_did_go_back_to_confined_workers(runner):
    """As a session's checker does before any submission runs: a plan whose builds no calibration here checked is
    checked once, and a case whose checksum differs sends every mutant of that plan to confined workers."""
    plan = make_plan(find_problem(PROBLEM), "submit", "cpu")
    unchecked = dataclasses.replace(plan, builds_checked=False)
    assert runner.first_failure(unchecked, REFERENCE) is None
    drifted = dataclasses.replace(plan, builds_checked=False, cases=[
        dataclasses.replace(plan.cases[0], build_sha256="0" * 64), *plan.cases[1:]])
    assert runner.first_failure(drifted, REFERENCE) is UNDECIDED
