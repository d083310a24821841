"""``judge merge`` reads shard folders as untrusted input: the attacks that broke it.

A shard's ``summary.json`` and ``students/*/results.json`` are files anyone with the output folder (or the machine
that ran the shard) can edit. Each test here hands ``judge merge`` one such folder and asserts what a stored result
checked when read must give: one line of bad input (exit 2), never an internal error, a hang, or a file written
outside ``--out``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import judge_env

PROBLEM = {"slug": "x", "title": "t"}
ROW = {"student": "s1", "verdict": "accepted", "passed": 0, "total": 0}
REPORT = {"grading": {"student": "s1", "source": "s1.py"}, "tests": [], "verdict": "accepted", "passed": 0, "score": 0.0,
          "total": 0, "execution_time": 0.0}
"""a stored result with every field report_fault checks, so that each malformed one below fails at its own field"""


def _shard(folder: Path, summary: object, report: object | None = None) -> Path:
    (folder / "students" / "s1").mkdir(parents=True)
    (folder / "summary.json").write_text(json.dumps(summary))
    if report is not None:
        (folder / "students" / "s1" / "results.json").write_text(json.dumps(report))
    return folder


def _merge(folder: Path, out: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "judge", "merge", str(folder), "--out", str(out)],
                          capture_output=True, text=True, env=judge_env(None), timeout=timeout)


@pytest.mark.parametrize("summary", [
    {"problem": "x", "shard": None, "students": []},
    {"problem": {"title": "t"}, "shard": None, "students": []},
    {"problem": PROBLEM, "shard": None, "students": 5},
    {"problem": PROBLEM, "shard": None, "students": [1]},
    {"problem": PROBLEM, "shard": None, "students": [], "skipped": 3},
], ids=["problem-a-string", "problem-without-slug", "students-a-number", "a-row-a-number", "skipped-a-number"])
def test_a_malformed_summary_is_one_line_of_bad_input(summary, tmp_path):
    merged = _merge(_shard(tmp_path / "a", summary), tmp_path / "out")
    assert merged.returncode == 2 and "internal error" not in merged.stderr, merged.stderr
    assert len(merged.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("report, field", [
    ({**REPORT, "tests": [1]}, "tests[0]"),
    ({**REPORT, "judge": []}, "judge"),
    ({**REPORT, "grading": {"student": "s1", "source": "s1.py", "class_folder": 3}}, "grading.class_folder"),
    ({**REPORT, "grading": {"student": "s1", "class_folder": "/"}}, "grading.source"),
], ids=["a-case-a-number", "judge-a-list", "class-folder-a-number", "no-source"])
def test_a_malformed_stored_result_is_one_line_of_bad_input_naming_the_field(report, field, tmp_path):
    summary = {"problem": PROBLEM, "shard": None, "students": [ROW]}
    merged = _merge(_shard(tmp_path / "a", summary, report), tmp_path / "out")
    assert merged.returncode == 2 and "internal error" not in merged.stderr, merged.stderr
    assert len(merged.stderr.strip().splitlines()) == 1 and field in merged.stderr, merged.stderr


def test_a_stored_result_never_writes_outside_the_merged_folder(tmp_path):
    """The stored result's own ``grading.student`` names where it is saved: ``../../../pwned`` wrote
    ``results.json`` three folders above ``--out/students``."""
    summary = {"problem": PROBLEM, "shard": None, "students": [ROW]}
    report = {**REPORT, "grading": {"student": "../../../pwned"}}
    out = tmp_path / "deep" / "er" / "out"
    _merge(_shard(tmp_path / "a", summary, report), out)
    assert not (out / "students" / "../../../pwned").resolve().exists(), "judge merge wrote outside --out"


def test_a_row_never_reads_outside_its_shard(tmp_path):
    """A summary row's student ``../../elsewhere`` makes merge read (and copy) a result from outside the shard."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "results.json").write_text(json.dumps({**REPORT, "grading": {"student": "s1"}}))
    summary = {"problem": PROBLEM, "shard": None, "students": [{**ROW, "student": "../../elsewhere"}]}
    merged = _merge(_shard(tmp_path / "a", summary), tmp_path / "out")
    assert merged.returncode == 2, merged.stdout + merged.stderr


def test_a_stored_source_that_never_ends_does_not_hang_the_merge(tmp_path):
    """The stored result names its own source and class folder; the audit reads that source whole: a FIFO hangs
    judge merge for ever (and ``/dev/zero`` would fill its memory)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    summary = {"problem": PROBLEM, "shard": None, "students": [ROW]}
    report = {**REPORT, "submission": {"sha256": "ab"},
              "grading": {"student": "s1", "class_folder": str(tmp_path), "source": str(fifo)}}
    try:
        merged = _merge(_shard(tmp_path / "a", summary, report), tmp_path / "out", timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("judge merge hangs on a stored source that is a FIFO")
    assert merged.returncode in (0, 2)


SHOWN = {**REPORT, "grading": {"student": "s1", "source": "s1.py"}, "execution_time": 0.1, "mode": "submit",
         "problem": PROBLEM, "judge": {}, "submission": {}}
"""a stored result that passes every check of judge merge (it merges: see the first test below)"""


def _one_student(folder: Path, report: object, exact: object | None = None) -> Path:
    _shard(folder, {"problem": PROBLEM, "shard": None, "students": [ROW]}, report)
    if exact is not None:
        (folder / "students" / "s1" / "instructor.json").write_text(json.dumps(exact))
    return folder


def test_a_stored_result_with_every_field_merges(tmp_path):
    """The control for the attacks' shapes below: each differs from this one result in one field."""
    merged = _merge(_one_student(tmp_path / "a", SHOWN), tmp_path / "out")
    assert merged.returncode == 0, merged.stderr


@pytest.mark.parametrize("report", [
    {key: value for key, value in SHOWN.items() if key != "problem"},
    {**SHOWN, "submission": {"sha256": "ab"}, "grading": {"student": "s1", "class_folder": "/", "source": "a\u0000b"}},
    {**SHOWN, "tests": [{"status": "failed", "score": 0.0, "extra_data": {
        "case": "c", "hidden": False, "verdict": "wrong_answer",
        "calls": [{"got": json.loads("[" * 900 + "]" * 900)}]}}],
     "verdict": "wrong_answer", "total": 1},
], ids=["no-problem", "source-with-nul", "got-nested-900-deep"])
def test_a_stored_result_merge_cannot_show_is_one_line_of_bad_input(report, tmp_path):
    """Found by an attack: a result without ``problem`` (the report page's title: jinja2's UndefinedError is none of the
    errors _check_shown catches), a stored source with a NUL byte in its name (ValueError from os.stat, outside
    what read_file words), or a stored value nested 900 deep (JSON reads it; rendering it overflows the stack)
    each end judge merge in an internal error."""
    merged = _merge(_one_student(tmp_path / "a", report), tmp_path / "out")
    assert merged.returncode == 2 and "internal error" not in merged.stderr, merged.stderr


def test_an_instructor_copy_is_read_as_untrusted_as_the_result(tmp_path):
    """Found by an attack: ``instructor.json`` is copied and, with ``--exact-figures``, shown unchecked: one of the same
    ``grading`` whose ``tests`` is a number ends the merge in an internal error (TypeError)."""
    folder = _one_student(tmp_path / "a", SHOWN, {**SHOWN, "tests": 5})
    merged = subprocess.run([sys.executable, "-m", "judge", "merge", str(folder), "--out", str(tmp_path / "out"),
                             "--exact-figures"], capture_output=True, text=True, env=judge_env(None), timeout=60)
    assert merged.returncode == 2 and "internal error" not in merged.stderr, merged.stderr


@pytest.mark.parametrize("name", ["summary.json", "students/s1/results.json"])
def test_a_stored_file_linked_to_proc_is_one_line_of_bad_input(name, tmp_path):
    """Found by an attack: read_stored refuses what is not a regular file, but a link to a /proc file (a regular file
    that reads like no file on disk) is followed and read: ``/proc/self/pagemap`` fails the read with EINVAL, an
    internal error."""
    folder = _one_student(tmp_path / "a", SHOWN)
    (folder / name).unlink()
    (folder / name).symlink_to("/proc/self/pagemap")
    merged = _merge(folder, tmp_path / "out")
    assert merged.returncode == 2 and "internal error" not in merged.stderr, merged.stderr


def test_a_linked_student_folder_is_not_read_from_outside_the_shard(tmp_path):
    """Found by an attack: a row's name is now one file name, but ``students/s1`` may be a link to a folder outside
    the shard: merge reads the result there and copies it into --out as the shard's (what an earlier attack's
    '../../elsewhere' row did)."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "results.json").write_text(json.dumps(SHOWN))
    folder = tmp_path / "a"
    (folder / "students").mkdir(parents=True)
    (folder / "summary.json").write_text(json.dumps({"problem": PROBLEM, "shard": None, "students": [ROW]}))
    (folder / "students" / "s1").symlink_to(outside)
    merged = _merge(folder, tmp_path / "out")
    assert merged.returncode == 2, merged.stdout + merged.stderr
