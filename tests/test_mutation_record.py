"""``judge verify`` keeps each problem's mutation result in its package and replays it while nothing it depends on
changes; every bundled problem's kept result is up to date, so a fresh clone's ``judge verify`` replays it (CI's slow
step measures each again and compares, ``tests/test_mutate.py``)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from judge.author.mutation import record
from judge.author.mutation.mutation_check import MutationCheck
from judge.author.verify import verify
from judge.messages import say
from judge.package.problem import available, find_problem
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
    """The problem copied under ``tmp_path`` without its kept result, found there. The cache is the run's own
    (tests/conftest.py), so the copy's calibration, keyed by its content, is measured once for every test here."""
    shutil.copytree(REPO / "problems" / SLUG, tmp_path / "problems" / SLUG)
    (tmp_path / "problems" / SLUG / "mutation-cpu.json").unlink(missing_ok=True)
    (tmp_path / "solutions").mkdir()
    shutil.copy(REPO / "solutions" / f"{SLUG}.py", tmp_path / "solutions")
    monkeypatch.setenv("JUDGE_PROBLEMS", str(tmp_path / "problems"))
    return tmp_path


def _checked(recompute: bool = False) -> list[tuple[str, str]]:
    tally, check = Tally(), MutationCheck(recompute=recompute)
    try:
        check(find_problem(SLUG), tally)
    finally:
        check.close()
    return tally.events


REUSED = ("log", say("mutate_reused", slug=SLUG, record="mutation-cpu.json", machine=record.machine()))


def test_an_unchanged_problem_s_result_is_replayed_and_any_change_measures_again(copy):
    first = _checked()
    assert REUSED not in first and any("mutation score 100.0%" in text for _, text in first)
    assert _checked() == [REUSED, *first]

    declared = next((copy / "problems" / SLUG / "submissions").rglob("*.py"))
    declared.write_text(declared.read_text() + "\n# edited\n")
    assert REUSED in _checked(), "declared submissions are judged on every run: they are not in the key"
    case = next((copy / "problems" / SLUG / "cases" / "hidden").glob("*.json"))
    reference = copy / "solutions" / f"{SLUG}.py"
    for changed, why in ((case, "a changed case file"), (reference, "a changed reference")):
        kept = changed.read_text()
        changed.write_text(kept + "\n")
        assert record.load(find_problem(SLUG), "cpu") is None, f"{why} is a changed problem"
        changed.write_text(kept)
    assert REUSED not in _checked(recompute=True)


def test_the_record_is_the_package_s_and_one_that_cannot_be_read_is_measured_again(copy):
    first = _checked()
    kept = copy / "problems" / SLUG / "mutation-cpu.json"
    data = json.loads(kept.read_text())
    assert data["events"] == [list(e) for e in first] and data["measured_on"] == record.machine()
    assert set(data["statuses"].values()) <= {"killed", "equivalent"} and data["statuses"]
    assert not (Path(os.environ["JUDGE_CACHE"]) / "mutation").exists(), "the record is the package's, not the cache's"
    for broken in ("{not json", json.dumps([["log", "x"]]), json.dumps({**data, "events": [["shout", "x"]]}),
                   json.dumps({**data, "statuses": ["killed"]}), json.dumps({**data, "key": "0" * 32})):
        kept.write_text(broken)
        assert record.load(find_problem(SLUG), "cpu") is None, broken
    assert REUSED not in _checked()
    assert json.loads(kept.read_text()) == data, "measured again, and kept again"


def test_a_run_that_reports_an_error_is_not_kept(copy):
    toml = copy / "problems" / SLUG / "problem.toml"
    toml.write_text(toml.read_text() + '\n[[mutation.equivalent]]\nid = "00000000"\nreason = "no such mutant"\n')
    events = _checked()
    assert any(kind == "error" and "00000000" in text for kind, text in events)
    assert not (copy / "problems" / SLUG / "mutation-cpu.json").exists()
    assert REUSED not in _checked()


def test_the_key_covers_the_judge_and_the_install_and_the_record_names_the_machine(copy, monkeypatch):
    problem = find_problem(SLUG)
    before = record.key(problem, "cpu")
    assert record.key(problem, "cuda") != before
    for name in ("torch", "numpy", "python"):
        assert record.key(problem, "cpu", {**record.environment(), name: "0.0"}) != before, name
    with monkeypatch.context() as patch:
        patch.setattr(record, "_judge_code", lambda: "another judge")
        assert record.key(problem, "cpu") != before
    first = _checked()
    monkeypatch.setattr(record, "cpu_model", lambda: "another CPU")
    assert record.key(problem, "cpu") == before, "a record made on one machine is read on another checkout"
    assert _checked() == [REUSED, *first], "and says where it was measured"
    (problem.root / "notes.txt").write_text("any file of the package is read")
    assert record.key(problem, "cpu") != before


def test_verify_reuses_the_record_and_recompute_ignores_it(copy):
    first = run_judge(["verify", SLUG], copy)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "mutation result reused" not in first.stdout
    again = run_judge(["verify", SLUG, "--jobs", "2"], copy)
    assert again.returncode == 0 and "mutation result reused" in again.stdout
    assert [l for l in first.stdout.splitlines() if "mutation score" in l] == [
        l for l in again.stdout.splitlines() if "mutation score" in l]
    fresh = run_judge(["verify", SLUG, "--recompute"], copy)
    assert fresh.returncode == 0 and "mutation result reused" not in fresh.stdout


@pytest.mark.parametrize("slug", available())
def test_every_bundled_problem_keeps_a_result_of_this_tree(slug):
    """Else a fresh clone's ``judge verify`` measures it again (minutes, not seconds): after a change to the judge
    or a package, ``judge verify --recompute`` writes them afresh, and the slow step checks what they say. Checked
    against the install the record names, so that a newer NumPy here does not fail the tree (it measures again)."""
    problem = find_problem(slug)
    data = json.loads(record.path(problem, "cpu").read_text())
    assert data["key"] == record.key(problem, "cpu", data["environment"]), (
        f"{record.path(problem, 'cpu')} is stale: run 'judge verify --recompute' and commit it")


# What a red team tried against the record, each kept as a test.

def _kept(events: list[tuple[str, str]]) -> None:
    """A record of the copy's package as it is now, written as judge verify writes one."""
    problem = find_problem(SLUG)
    record.store(problem, "cpu", record.key(problem, "cpu"), {"00000000": "killed"}, events)


def test_a_record_whose_lines_are_not_plain_printable_text_is_measured_again(copy):
    _kept([("log", "loss-scale-overflow: mutation score 100.0%")])
    assert record.load(find_problem(SLUG), "cpu") is not None
    for hostile in ("\x1b]0;owned\x07", "\x1b[2J", "a\rloss-scale-overflow: ok", "two\nlines"):
        _kept([("log", hostile)])
        assert record.load(find_problem(SLUG), "cpu") is None, repr(hostile)


def test_a_record_nested_too_deep_to_parse_is_measured_again(copy):
    (copy / "problems" / SLUG / "mutation-cpu.json").write_text("[" * 100_000)
    assert record.load(find_problem(SLUG), "cpu") is None


def test_files_in_a_linked_folder_of_the_package_are_in_the_key(copy, tmp_path):
    package = copy / "problems" / SLUG
    shutil.move(package / "cases" / "hidden", tmp_path / "elsewhere")
    (package / "cases" / "hidden").symlink_to(tmp_path / "elsewhere")
    (package / "cases" / "again").symlink_to(tmp_path / "elsewhere")  # a folder linked twice is read once
    problem = find_problem(SLUG)
    assert any(case.hidden for case in problem.cases)
    before = record.key(problem, "cpu")
    next((tmp_path / "elsewhere").glob("*.json")).unlink()
    assert record.key(find_problem(SLUG), "cpu") != before


def test_an_edit_made_while_the_mutants_run_leaves_no_record(copy, monkeypatch):
    from judge.author.mutation import mutation_check

    measure = mutation_check.mutate

    def edited_meanwhile(problem, *args, **kwargs):
        run = measure(problem, *args, **kwargs)
        problem.reference.write_text(problem.reference.read_text() + "\n# saved while the mutants ran\n")
        return run

    monkeypatch.setattr(mutation_check, "mutate", edited_meanwhile)
    _checked()
    assert record.load(find_problem(SLUG), "cpu") is None, "kept as if measured on the edited reference"


def test_a_problem_without_its_reference_is_one_error_and_nothing_else(copy):
    (copy / "solutions" / f"{SLUG}.py").unlink()
    lines: list[str] = []
    assert not verify([SLUG], log=lines.append)
    assert [line for line in lines if line.startswith("error")] == [
        say("verify_error", text=say("no_reference", path=copy / "solutions" / f"{SLUG}.py"))], lines
    assert say("verify_summary", problems=1, failed=1, errors=1, warnings=0) in lines
