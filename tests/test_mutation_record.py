"""``judge verify`` keeps each problem's mutation result and replays it while nothing it depends on changes."""

from __future__ import annotations

import json
import shutil

import pytest

from judge.author.mutation import record
from judge.author.mutation.mutation_check import MutationCheck
from judge.messages import say
from judge.package.problem import find_problem
from tests.support.cli import REPO, run_judge

SLUG = "loss-scale-overflow"
"""a problem whose whole mutation run takes about a second"""


class Tally:
    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def log(self, text: str) -> None:
        self.events.append(("log", text))

    def warning(self, text: str) -> None:
        self.events.append(("warning", text))

    def error(self, text: str) -> None:
        self.events.append(("error", text))


@pytest.fixture()
def copy(tmp_path, monkeypatch):
    """The problem copied under ``tmp_path``, found there, with a cache of its own."""
    shutil.copytree(REPO / "problems" / SLUG, tmp_path / "problems" / SLUG)
    (tmp_path / "solutions").mkdir()
    shutil.copy(REPO / "solutions" / f"{SLUG}.py", tmp_path / "solutions")
    monkeypatch.setenv("JUDGE_PROBLEMS", str(tmp_path / "problems"))
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "cache"))
    return tmp_path


def _checked(recompute: bool = False) -> list[tuple[str, str]]:
    tally, check = Tally(), MutationCheck(recompute=recompute)
    try:
        check(find_problem(SLUG), tally)
    finally:
        check.close()
    return tally.events


REUSED = ("log", say("mutate_reused", slug=SLUG))


def test_an_unchanged_problem_s_result_is_replayed_and_any_change_measures_again(copy):
    first = _checked()
    assert REUSED not in first and any("mutation score 100.0%" in text for _, text in first)
    assert _checked() == [REUSED, *first]
    assert REUSED not in _checked(recompute=True)

    case = next((copy / "problems" / SLUG / "cases" / "hidden").glob("*.json"))
    case.write_text(case.read_text() + "\n")
    assert REUSED not in _checked(), "a changed case file is a changed problem"
    reference = copy / "solutions" / f"{SLUG}.py"
    reference.write_text(reference.read_text() + "\n# edited\n")
    assert REUSED not in _checked(), "a changed reference is a changed problem"
    declared = next((copy / "problems" / SLUG / "submissions").rglob("*.py"))
    declared.write_text(declared.read_text() + "\n# edited\n")
    assert REUSED in _checked(), "declared submissions are judged on every run: they are not in the key"


def test_a_record_that_cannot_be_read_is_measured_again(copy):
    first = _checked()
    kept = list((copy / "cache" / "mutation").glob(f"{SLUG}-*.json"))
    assert len(kept) == 1 and json.loads(kept[0].read_text()) == [list(e) for e in first]
    for broken in ("{not json", json.dumps([["shout", "x"]]), json.dumps({"log": "x"})):
        kept[0].write_text(broken)
        assert REUSED not in _checked()


def test_the_key_covers_the_judge_torch_and_the_machine(copy, monkeypatch):
    problem = find_problem(SLUG)
    before = record.key(problem, "cpu")
    assert record.key(problem, "cuda") != before
    for name, other in (("torch_version", "0.0.0"), ("_judge_code", "another judge"), ("cpu_model", "another CPU")):
        with monkeypatch.context() as patch:
            patch.setattr(record, name, lambda other=other: other)
            assert record.key(problem, "cpu") != before, name
    assert record.key(problem, "cpu") == before


def test_verify_reuses_the_record_and_recompute_ignores_it(copy):
    first = run_judge(["verify", SLUG], copy)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "mutation result reused" not in first.stdout
    again = run_judge(["verify", SLUG], copy)
    assert again.returncode == 0 and "mutation result reused" in again.stdout
    assert [l for l in first.stdout.splitlines() if "mutation score" in l] == [
        l for l in again.stdout.splitlines() if "mutation score" in l]
    fresh = run_judge(["verify", SLUG, "--recompute"], copy)
    assert fresh.returncode == 0 and "mutation result reused" not in fresh.stdout
