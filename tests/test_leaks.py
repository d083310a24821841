"""The leak check (:mod:`judge.author.leaks`): its rule as tables of examples, toy packages that leak and that don't,
``judge gen`` refusing to write a leaking case and ``judge verify`` failing on one, and every bundled problem clean.

The toy packages are copies of training-diagnostics whose case files are written here with their expected
outputs by hand (the check reads only files), so most of these tests need no reference run.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from judge.author.leaks import find_leaks, matches, parts, specific
from judge.package.problem import available, find_problem, load_problem
from judge.package.tolerance import DEFAULT
from tests.support.cli import REPO, SLUG
from tests.support.toy import mlp_case

STATS = [{"mean": 0.1234, "std": 1.4019, "dead_fraction": 0.0},
         {"mean": -0.3859, "std": 1.5308, "dead_fraction": 0.0625}]
"""an output of compute_activation_stats, with specific leaves"""
GRADS = [{"mean": 0.0, "std": 0.05, "norm": 2.0}]
OTHER = [{"mean": 0.5, "std": 0.25, "dead_fraction": 0.0}, {"mean": 2.7182, "std": 3.1415, "dead_fraction": 0.5}]
THIRD = [{"mean": 1.4142, "std": 1.7321, "dead_fraction": 0.0}]


@pytest.mark.parametrize("value, telling", [
    (0, False), (1, False), (-1, False), (0.0, False), (0.5, False), (0.25, False), (1.5, False), (20, False),
    (3e-4, False), (2000.0, False), (0.00005, False), (1024.0, False), (65536, False), (0.03125, False),
    (0.0312, False), (True, False), (None, False), ("no_grad", False), ("heads.a.0.weight", False),
    (0.1737, True), (1.2883, True), (9090.3562, True), (0.3333, True), (-0.789, True), (123, True),
    ("a sentence, with spaces", True), ("x" * 41, True), (float("nan"), False), (float("inf"), False),
])
def test_which_leaves_tell_more_than_a_guess(value, telling):
    assert specific(value, DEFAULT) is telling


@pytest.mark.parametrize("seen, expected, same", [
    (0.12345, 0.1234, True), (0.1236, 0.1234, False), (9090.36, 9090.3562, True), (1, 1.0, True),
    (True, 1, False), (1, True, False), ("ok", "ok", True), ("ok", "Ok", False),
    ([0.1234, 2], [0.1234, 2.0], True), ([0.1234], [0.1234, 2.0], False),
    ({"a": 0.1234}, {"a": 0.12341}, True), ({"a": 0.1234, "b": 1}, {"a": 0.1234}, False),
    ({"a": [1, 2]}, {"a": [1, 2]}, True), (float("nan"), float("nan"), True), (float("inf"), 1e308, False),
])
def test_matching_follows_the_comparison_rule(seen, expected, same):
    assert matches(seen, expected, DEFAULT) is same


def test_the_telling_parts_of_an_output():
    output = {"stats": STATS, "count": 3, "label": "healthy"}
    found = dict(parts(output, DEFAULT))
    assert set(found) == {"", ".stats", ".stats[0]", ".stats[1]"}
    assert dict(parts(0.1737, DEFAULT)) == {"": 0.1737}  # a whole answer that is one specific number
    assert dict(parts(GRADS, DEFAULT)) == {}  # round numbers only: as easy to guess as to read
    assert dict(parts("healthy", DEFAULT)) == {}


def _case(title: str, calls: list[dict], outputs: list) -> dict:
    case = mlp_case(title, 10, 8)
    case["calls"] = calls
    case["expected"] = {"cpu": {"outputs": outputs}}
    return case


def _stats_then(literal: list, stats: list = STATS) -> dict:
    """A case measuring ``stats``, then diagnosing ``literal`` (what a rule-table case does)."""
    return _case("stats, then a diagnosis", [
        {"method": "compute_activation_stats", "args": ["$model", "$x"]},
        {"method": "diagnose", "args": [literal, GRADS]}], [stats, "healthy"])


def _package(root: Path, cases: dict[str, dict]) -> Path:
    package = root / "problems" / SLUG
    package.mkdir(parents=True)
    for name in ("problem.toml", "starter.py", "statement.md.j2"):
        shutil.copy(REPO / "problems" / SLUG / name, package / name)
    (root / "solutions").mkdir()
    shutil.copy(REPO / "solutions" / f"{SLUG}.py", root / "solutions")
    for case_id, case in cases.items():
        path = package / "cases" / f"{case_id}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(case))
    return package


def _leaks(tmp_path: Path, cases: dict[str, dict]) -> list:
    return find_leaks(load_problem(_package(tmp_path, cases)))


def test_a_rule_table_fed_its_own_case_s_output_is_clean(tmp_path):
    """The shape of most problems: a case measures, then a later call of the same case diagnoses the reference's
    measurement. The worker sees that literal only after the measurement is answered."""
    assert _leaks(tmp_path, {"sample/01-a": _stats_then(OTHER, OTHER), "hidden/01-b": _stats_then(STATS)}) == []


def test_an_earlier_literal_holding_a_hidden_answer_leaks(tmp_path):
    found = _leaks(tmp_path, {"sample/01-table": _stats_then([STATS[1]], OTHER),
                              "hidden/01-b": _stats_then(OTHER, STATS)})
    assert [(f.case, f.call, f.part) for f in found] == [("hidden/01-b", 0, "[1]")]
    assert "sample/01-table call 1" in found[0].seen


def test_a_hidden_answer_in_an_earlier_hidden_case_leaks_and_in_a_later_one_does_not(tmp_path):
    cases = {"sample/01-a": _stats_then(OTHER, OTHER), "hidden/01-b": _stats_then(STATS, THIRD),
             "hidden/02-c": _stats_then(THIRD, STATS)}
    assert [(f.case, f.part) for f in _leaks(tmp_path, cases)] == [("hidden/02-c", "")]


def test_a_hidden_answer_that_a_sample_publishes_leaks(tmp_path):
    cases = {"sample/01-a": _stats_then(OTHER, STATS), "hidden/01-b": _stats_then(OTHER, STATS)}
    found = _leaks(tmp_path, cases)
    assert [f.case for f in found] == ["hidden/01-b"]
    assert "the expected output of sample/01-a call 0" in found[0].seen


def test_chance_equalities_are_not_leaks(tmp_path):
    """A lone field equal to an earlier number, a record of round numbers and a call's own input tell nothing."""
    lone = {"mean": 0.9999, "std": 0.7777, "dead_fraction": 0.0}
    round_record = {"mean": 0.5, "std": 0.25, "dead_fraction": 0.0}
    own = [{"mean": 0.4321, "std": 0.8765, "dead_fraction": 0.0}]
    cases = {
        "sample/01-table": _stats_then([lone, round_record], OTHER),
        "hidden/01-field": _stats_then(THIRD, [{"mean": 0.1111, "std": 0.7777, "dead_fraction": 0.0}]),
        "hidden/02-round": _stats_then(THIRD, [round_record]),
        "hidden/03-own": _case("its own input", [{"method": "diagnose", "args": [own, GRADS]}], [own]),
    }
    assert _leaks(tmp_path, cases) == []


def test_judge_gen_refuses_to_write_a_leaking_case_and_verify_fails_on_one(tmp_path, monkeypatch):
    """The sample's rule-table literal is what the reference measures on the hidden case: gen rejects the hidden
    case (its file keeps no expectations) and writes the sample; verify, given a stale file, names the leak."""
    from judge.author.generate import generate
    from judge.author.reference import call_reference, load_reference
    from judge.author.verify import verify
    from judge.package.cases import load_case

    hidden_case = mlp_case("a hidden case", 20, 6)
    package = _package(tmp_path, {"sample/01-small": mlp_case("a sample", 10, 8), "hidden/01-six": hidden_case})
    monkeypatch.setenv("JUDGE_PROBLEMS", str(tmp_path / "problems"))
    problem = find_problem(SLUG)
    hidden_path = package / "cases" / "hidden" / "01-six.json"
    measured = call_reference(load_reference(problem).Solution(), load_case(hidden_path, "hidden", {
        m["name"] for m in problem.methods}))
    sample_path = package / "cases" / "sample" / "01-small.json"
    sample = json.loads(sample_path.read_text())
    sample["calls"].append({"method": "diagnose", "args": [measured[0], GRADS]})
    sample_path.write_text(json.dumps(sample))

    log: list[str] = []
    rejected = generate(find_problem(SLUG), log=log.append)
    assert [case for case, _ in rejected] == ["hidden/01-six"]
    assert "leak: hidden/01-six call 0" in "\n".join(log)
    assert "expected" not in json.loads(hidden_path.read_text())
    assert "expected" in json.loads(sample_path.read_text())

    stale = json.loads(hidden_path.read_text())
    stale["expected"] = {"cpu": {"outputs": measured}}
    hidden_path.write_text(json.dumps(stale))
    log.clear()
    assert not verify([SLUG], declared=False, log=log.append)
    assert any("leak: hidden/01-six call 0 (compute_activation_stats)" in line for line in log), log


@pytest.mark.parametrize("slug", available())
def test_no_bundled_problem_leaks(slug):
    assert [str(leak) for leak in find_leaks(find_problem(slug))] == []
