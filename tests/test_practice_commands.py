"""The learner's commands (list, show, start, history) and where their history lives."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from judge.package.problem import available
from judge.practice import history
from judge.practice.history import Attempt, Status
from judge.places import data_home
from tests.support.cli import REFERENCE_SOURCE, SLUG, run_judge


def _attempt(problem: str, mode: str, verdict: str, at: str = "2026-01-02T03:04:05+00:00") -> Attempt:
    return Attempt(at=at, problem=problem, mode=mode, verdict=verdict, passed=1, total=3, cpu_s=0.01, wall_s=1.0,
                   code_sha256="ab" * 32, source="x.py")


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A fresh, empty learner home for one test (the CLI started by the test inherits it)."""
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_data_home_follows_the_platform_convention(monkeypatch, tmp_path):
    monkeypatch.delenv("JUDGE_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_home() == tmp_path / "xdg" / "torch-judge"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert data_home() == Path.home() / ".local" / "share" / "torch-judge"
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "mine"))
    assert data_home() == tmp_path / "mine"


def test_history_records_attempts_and_derives_status(home):
    assert history.attempts() == [] and history.progress() == {}
    assert not home.exists(), "reading an empty history must not create it"
    history.record(_attempt("a", "run", "wrong_answer", "2026-01-01T00:00:00+00:00"))
    history.record(_attempt("a", "submit", "accepted", "2026-01-01T00:01:00+00:00"))
    history.record(_attempt("b", "submit", "wrong_answer"))
    history.record(_attempt("c", "run", "accepted"))
    progress = history.progress()
    assert {slug: p.status for slug, p in progress.items()} == {
        "a": Status.SOLVED, "b": Status.ATTEMPTED, "c": Status.ATTEMPTED}  # only an accepted submit solves
    assert (progress["a"].attempts, progress["a"].submissions, progress["c"].submissions) == (2, 1, 0)  # tries: submits
    assert [(a.mode, a.number) for a in history.attempts("a")] == [("run", 1), ("submit", 2)]  # oldest first
    history.record(_attempt("a", "run", "accepted", "2020-01-01T00:00:00+00:00"))  # a clock set back: still the 3rd
    assert [(a.verdict, a.number) for a in history.attempts("a")][-1] == ("accepted", 3)
    with sqlite3.connect(home / "history.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == history.SCHEMA_VERSION


def test_list_shows_difficulty_tags_and_status(home):
    history.record(_attempt("dead-relu-detector", "submit", "accepted"))
    result = run_judge(["list"])
    assert result.returncode == 0, result.stderr
    count = len(available())
    rows = {line.split()[1]: line for line in result.stdout.splitlines()[1:count + 1]}
    assert set(rows) == set(available())
    assert rows["dead-relu-detector"].startswith("solved") and " easy " in rows["dead-relu-detector"]
    assert rows["training-diagnostics"].startswith("new") and "rule-engine" in rows["training-diagnostics"]
    assert f"1 of {count} solved" in result.stdout


def test_show_renders_the_statement_for_a_terminal(home):
    result = run_judge(["show", SLUG])
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "Training Diagnostics\n====" in text and "Examples\n--------" in text
    assert "```" not in text and "**" not in text and "{{" not in text
    assert "    compute_activation_stats(model, x)" in text  # examples are indented code
    assert text.rstrip().endswith(f"'judge start {SLUG}' writes the starter file")


def test_start_writes_the_starter_and_never_overwrites_work(tmp_path, home):
    starter = (Path(__file__).parents[1] / "problems" / SLUG / "starter.py").read_text()
    result = run_judge(["start", SLUG], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    written = tmp_path / f"{SLUG}.py"
    assert written.read_text() == starter
    assert f"judge run {SLUG}'" in result.stdout  # the default file needs no path
    written.write_text("my work")
    refused = run_judge(["start", SLUG], cwd=tmp_path)
    assert refused.returncode == 2 and written.read_text() == "my work"
    assert refused.stderr.count("\n") == 1 and "--force" in refused.stderr
    assert run_judge(["start", SLUG, "--force"], cwd=tmp_path).returncode == 0
    assert written.read_text() == starter
    (tmp_path / "work").mkdir()
    assert run_judge(["start", SLUG, "work"], cwd=tmp_path).returncode == 0
    assert (tmp_path / "work" / f"{SLUG}.py").read_text() == starter


@pytest.mark.parametrize("args", [
    ["show", "no-such-problem"], ["start", "no-such-problem"], ["history", "no-such-problem"],
    ["start", SLUG, "/no/such/folder/x.py"], ["start", SLUG, "notes.txt"], ["show", SLUG, "--lang", "fr"],
    ["run", SLUG],
])
def test_bad_input_is_one_line(tmp_path, home, args):
    result = run_judge(args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("judge: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr


def test_history_lists_attempts_oldest_first_and_their_numbers_stay(home):
    assert "no attempts at dead-relu-detector yet" in run_judge(["history", "dead-relu-detector"]).stdout
    history.record(_attempt("dead-relu-detector", "run", "wrong_answer", "2026-01-01T00:00:00+00:00"))
    history.record(_attempt("dead-relu-detector", "submit", "accepted", "2026-01-01T00:05:00+00:00"))
    lines = run_judge(["history", "dead-relu-detector"]).stdout.splitlines()
    assert lines[0].split() == ["when", "mode", "verdict", "passed", "cpu", "(samples)", "code", "#"]
    assert [(line.split()[2], line.split()[-1]) for line in lines[1:3]] == [("run", "1"), ("submit", "2")]
    history.record(_attempt("dead-relu-detector", "run", "accepted", "2026-01-01T00:09:00+00:00"))
    again = run_judge(["history", "dead-relu-detector"]).stdout.splitlines()
    assert again[1:3] == lines[1:3] and again[3].split()[-1] == "3"  # a new attempt renumbers none


def test_an_unwritable_history_never_fails_a_judgement(toy_root, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("JUDGE_HOME", str(blocker))
    solution = tmp_path / "solution.py"
    solution.write_text(REFERENCE_SOURCE)
    result = run_judge(["run", SLUG, str(solution)], toy_root)
    assert result.returncode == 0, result.stderr
    assert "not recorded" in result.stderr and result.stderr.count("\n") == 1
