"""A new learner's whole path through the real command line: list, show, start, run, submit, list, history."""

from __future__ import annotations

import re

from judge.package.problem import available

from tests.support.cli import REFERENCE_SOURCE, SLUG, run_judge


def test_from_the_problem_list_to_an_accepted_solution(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))  # a fresh user: no history ...
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))  # ... and no calibrated limits
    work = tmp_path / "work"
    work.mkdir()

    def judge(*args: str, code: int = 0) -> str:
        result = run_judge(list(args), cwd=work)
        assert result.returncode == code, result.stdout + result.stderr
        return result.stdout

    listed = judge("list")
    assert f"new     {SLUG}" in listed and f"0 of {len(available())} solved" in listed

    statement = judge("show", SLUG)
    assert "Training Diagnostics\n====" in statement and "diagnose(activation_stats, gradient_stats)" in statement

    assert f"to {SLUG}.py" in judge("start", SLUG)
    solution = work / f"{SLUG}.py"
    assert "raise NotImplementedError" in solution.read_text()

    wrong = REFERENCE_SOURCE.replace("'std': _r(x.std())", "'std': _r(x.std(correction=0))")
    solution.write_text(wrong)
    tried = judge("run", SLUG, code=1)
    assert "verdict: wrong_answer" in tried
    assert "layer 1 · std" in tried and "hint: population-std-activation" in tried
    assert "divided by n instead of n - 1" in tried

    solution.write_text(REFERENCE_SOURCE)
    submitted = judge("submit", SLUG)
    assert "verdict: accepted" in submitted and re.search(r"(\d+)/\1 cases passed", submitted)

    assert f"solved  {SLUG}" in judge("list")
    attempts = judge("history", SLUG).splitlines()
    assert [line.split()[2:4] + line.split()[-1:] for line in attempts[1:3]] == [
        ["run", "wrong_answer", "1"], ["submit", "accepted", "2"]]  # oldest first, numbered for good
    assert "2 attempt(s)" in attempts[-1]
