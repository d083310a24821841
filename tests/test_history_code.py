"""The history keeps each attempt's code (since schema version 2) and its time on the samples (version 3), an
older file migrated with its rows kept; ``judge history SLUG --show N`` / ``--restore N [FILE]`` give the code
back, N counted from the first attempt."""

from __future__ import annotations

import sqlite3

import pytest

from judge.practice import history
from judge.practice.views import cpu_cell

from tests.support.cli import REFERENCE_SOURCE, SLUG, run_judge

VERSION_1 = """
CREATE TABLE attempts (id INTEGER PRIMARY KEY, at TEXT NOT NULL, problem TEXT NOT NULL, mode TEXT NOT NULL,
    verdict TEXT NOT NULL, passed INTEGER NOT NULL, total INTEGER NOT NULL, cpu_s REAL NOT NULL,
    wall_s REAL NOT NULL, code_sha256 TEXT NOT NULL, source TEXT NOT NULL);
CREATE INDEX attempts_by_problem ON attempts (problem, at);
INSERT INTO attempts VALUES (1, '2025-05-05T05:05:05+00:00', 'training-diagnostics', 'run', 'wrong_answer', 1, 3,
    0.01, 1.0, 'cd', 'old.py');
PRAGMA user_version = 1;
"""


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


def _version_1(home) -> None:
    with sqlite3.connect(home / "history.sqlite3") as db:
        db.executescript(VERSION_1)


def test_a_version_1_history_is_migrated_with_its_rows_kept(home):
    _version_1(home)
    [old] = history.attempts(SLUG)
    assert (old.source, old.verdict, old.code) == ("old.py", "wrong_answer", "")
    with sqlite3.connect(home / "history.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == history.SCHEMA_VERSION == 3
    history.record(history.Attempt(*[getattr(old, f) for f in ("at", "problem", "mode", "verdict", "passed",
                                                                "total", "cpu_s", "wall_s", "code_sha256")],
                                   source="new.py", code="print('kept')\n"))
    assert [(a.code, a.number) for a in history.attempts(SLUG)] == [("", 1), ("print('kept')\n", 2)]
    with pytest.raises(Exception, match="before the history kept code"):
        history.numbered(SLUG, 1)
    assert old.samples_cpu_s == 0.01  # a run's time was measured on the samples


def test_an_old_submit_shows_its_bound_as_one_and_a_new_one_its_samples(home):
    """Before version 3 a submit's figure added the hidden cases' coarse bounds (6516.9 ms for 0.1 s of work)."""
    _version_1(home)
    with sqlite3.connect(home / "history.sqlite3") as db:
        db.execute("INSERT INTO attempts VALUES (2, '2025-05-05T05:06:00+00:00', 'training-diagnostics', 'submit', "
                   "'accepted', 31, 31, 6.5169, 2.0, 'ef', 'old.py')")
    _, submit = history.attempts(SLUG)
    assert (submit.samples_cpu_s, submit.cpu_bound_s) == (None, 6.5169)
    assert cpu_cell(submit) == "≤ 6516.9 ms (bound)"
    report = {"problem": {"slug": SLUG}, "mode": "submit", "verdict": "accepted", "passed": 3, "total": 3,
              "execution_time": 2.0, "submission": {"path": "new.py", "sha256": "ab"}, "tests": [
                  {"extra_data": {"hidden": False, "cpu_time_s": 0.0012}},
                  {"extra_data": {"hidden": True, "cpu_time_s": 0.25}},
                  {"extra_data": {"hidden": True, "cpu_time_s": None}}]}
    new = history.Attempt.from_report(report)
    assert (new.samples_cpu_s, new.cpu_s, new.cpu_bound_s, cpu_cell(new)) == (0.0012, 0.2512, None, "1.2 ms")
    nothing = history.Attempt.from_report({**report, "tests": [{"extra_data": {"hidden": False, "cpu_time_s": None}}]})
    assert cpu_cell(nothing) == "-"


def test_show_and_restore_give_back_the_judged_code(home, toy_root, tmp_path):
    first = REFERENCE_SOURCE.replace("'std': _r(x.std())", "'std': _r(x.std(correction=0))")
    mine = tmp_path / "mine.py"
    for source in (first, REFERENCE_SOURCE):
        mine.write_text(source)
        assert run_judge(["run", SLUG, str(mine)], toy_root, cwd=tmp_path).returncode in (0, 1)
    listed = run_judge(["history", SLUG], toy_root).stdout.splitlines()
    assert listed[0].split()[-1] == "#" and [line.split()[-1] for line in listed[1:3]] == ["1", "2"]

    shown = run_judge(["history", SLUG, "--show", "1"], toy_root)
    assert shown.returncode == 0 and shown.stdout == first
    refused = run_judge(["history", SLUG, "--restore", "1", str(mine)], toy_root)  # it holds attempt 2
    assert refused.returncode == 2 and "--force" in refused.stderr and mine.read_text() == REFERENCE_SOURCE
    restored = run_judge(["history", SLUG, "--restore", "1", str(mine), "--force"], toy_root)
    assert restored.returncode == 0 and mine.read_text() == first
    assert run_judge(["history", SLUG, "--restore", "2"], toy_root, cwd=tmp_path).returncode == 0
    assert (tmp_path / f"{SLUG}.py").read_text() == REFERENCE_SOURCE

    for args, words in ((["--show", "9"], "no attempt 9"), (["--restore", "x"], "takes a number"),
                        (["--restore", "1", "a.py", "b.py"], "takes a number")):
        bad = run_judge(["history", SLUG, *args], toy_root)
        assert bad.returncode == 2 and words in bad.stderr and bad.stderr.count("\n") == 1, bad.stderr

    target = tmp_path / "elsewhere.py"  # --force once wrote through a link, over the link's target
    target.write_text("# not mine to overwrite\n")
    for link, pointing_at in ((tmp_path / "link.py", target), (tmp_path / "dangling.py", tmp_path / "new.py")):
        link.symlink_to(pointing_at)
        refused = run_judge(["history", SLUG, "--restore", "1", str(link), "--force"], toy_root)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
        assert "symbolic link" in refused.stderr and link.is_symlink()
    assert target.read_text() == "# not mine to overwrite\n" and not (tmp_path / "new.py").exists()


def test_a_file_an_older_judge_relabelled_is_migrated_again_and_a_newer_ones_left_alone(home):
    """An older judge opening a newer file wrote its own, lower version over it; the next newer judge must not
    fail adding a column that is there (it did: 'duplicate column name: samples_cpu_s')."""
    _version_1(home)
    history.attempts(SLUG)  # migrated to the current version
    with sqlite3.connect(home / "history.sqlite3") as db:
        db.execute("PRAGMA user_version = 2")
    [old] = history.attempts(SLUG)
    assert old.samples_cpu_s == 0.01
    with sqlite3.connect(home / "history.sqlite3") as db:
        db.execute(f"PRAGMA user_version = {history.SCHEMA_VERSION + 1}")
    history.record(old)
    assert len(history.attempts(SLUG)) == 2
    with sqlite3.connect(home / "history.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == history.SCHEMA_VERSION + 1


def _one_attempt(home) -> None:
    history.record(history.Attempt(at="2026-01-01T00:00:00+00:00", problem=SLUG, mode="run", verdict="accepted",
                                   passed=1, total=1, cpu_s=0.0, wall_s=1.0, code_sha256="ab", source="mine.py",
                                   code="class Solution: pass\n"))


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "force"])
def test_restore_over_a_fifo_is_one_line_of_bad_input_not_a_hang(force, home, tmp_path):
    """Found by an attack: ``--restore 1 FIFO`` opened the FIFO for writing and waited for a reader for ever."""
    import os
    import subprocess
    _one_attempt(home)
    fifo = tmp_path / "mine.py"
    os.mkfifo(fifo)
    try:
        result = run_judge(["history", SLUG, "--restore", "1", str(fifo), *force], None, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("judge history --restore hangs on a FIFO")
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr


def test_restore_never_writes_through_a_linked_folder(home, tmp_path):
    """Found by an attack: only FILE's last component is checked (``O_NOFOLLOW``); a symbolic link to a folder
    earlier in the path is followed, so ``linked/mine.py`` writes into the link's target."""
    _one_attempt(home)
    target = tmp_path / "elsewhere"
    target.mkdir()
    (tmp_path / "linked").symlink_to(target)
    result = run_judge(["history", SLUG, "--restore", "1", str(tmp_path / "linked" / "mine.py")], None, timeout=60)
    assert not (target / "mine.py").exists(), "judge history --restore wrote through a linked folder"
    assert result.returncode == 2 and "symbolic link" in result.stderr, result.stderr


def test_restore_never_writes_through_a_link_hidden_by_dot_dot(home, tmp_path):
    """Found by an attack: links are looked for in ``os.path.abspath(FILE)``, which drops ``linked/..`` without looking,
    but the kernel follows ``linked`` and then goes up from its target: ``linked/../mine.py`` is checked as
    ``<here>/mine.py`` and written beside the link's target, in a folder FILE never names."""
    _one_attempt(home)
    (tmp_path / "far" / "away").mkdir(parents=True)
    (tmp_path / "here").mkdir()
    (tmp_path / "here" / "linked").symlink_to(tmp_path / "far" / "away")
    result = run_judge(["history", SLUG, "--restore", "1", str(tmp_path / "here" / "linked" / ".." / "mine.py")],
                       None, timeout=60)
    assert not (tmp_path / "far" / "mine.py").exists(), "judge history --restore wrote through a link (linked/..)"
    assert result.returncode == 2 and "symbolic link" in result.stderr, result.stderr


def test_restore_over_a_file_it_cannot_read_is_one_line_of_bad_input(home):
    """Found by an attack: without ``--force`` an existing FILE is read whole to compare it with the attempt, outside
    the ``try`` that words the open's failures: a file the user may write but not read (``/proc/sys/vm/drop_caches``
    is one even for root; mode 0200 is one for anyone else) ends the command in an internal error,
    PermissionError."""
    import os
    if not os.path.isfile("/proc/sys/vm/drop_caches"):
        pytest.skip("no /proc/sys/vm/drop_caches here")
    _one_attempt(home)
    result = run_judge(["history", SLUG, "--restore", "1", "/proc/sys/vm/drop_caches"], None, timeout=60)
    assert result.returncode == 2 and "internal error" not in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
