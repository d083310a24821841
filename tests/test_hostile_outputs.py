"""Hostile strings through the real command line: the submissions of ``tests/adversarial/`` whose header says
``outputs: hostile`` (markup of every format, ``]]>``, terminal escapes, lone surrogates, bytes that are not
UTF-8), judged by ``judge submit`` in every ``--format``, and a class of them with hostile file names judged by
``judge grade``. Every output must be written, be UTF-8, parse, and show the hostile text as text.

``judge submit`` costs an interpreter and a worker per run, so the default run judges each hostile submission
in one format (text, Markdown, HTML and JUnit between them; ``tests/test_adversarial.py`` reads every one's
``--format json``, strictly) and the slow step judges every submission in every format.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judge.grading.render import CSV_COLUMNS
from judge.report.escape import inline, url_path
from judge.report.render import FORMATS
from tests.support.cli import REFERENCE_SOURCE, SLUG, judge_env
from tests.support.readers import (CONTROL, assert_nothing_injected, check_junit, read_csv, read_html, read_markdown,
                           read_xml, xml_text)
from tests.support.adversarial import ATTACKS, JUDGE_TIMEOUT_S

HOSTILE = [a for a in ATTACKS if a.header.get("outputs") == "hostile"]
MARKUP = "<script>alert(1)</script>"
"""in every hostile submission's text; the text report may cut a value to a column's width, never this prefix"""
ROTATION = ("text", "markdown", "html", "junit")
DEFAULT_FORMAT = {attack.path.stem: ROTATION[i % len(ROTATION)] for i, attack in enumerate(HOSTILE)}
RUNS = [pytest.param(attack, fmt, id=f"{attack.path.stem}-{fmt}",
                     marks=() if DEFAULT_FORMAT[attack.path.stem] == fmt else pytest.mark.slow)
        for attack in HOSTILE for fmt in FORMATS]


def test_there_are_hostile_submissions_for_every_format():
    assert len(HOSTILE) >= 4 and set(DEFAULT_FORMAT.values()) == set(ROTATION) == set(FORMATS) - {"json"}
    assert {a.verdict for a in HOSTILE} >= {"runtime_error", "wrong_answer", "output_format_error", "compile_error"}


def check_output(fmt: str, data: bytes) -> None:
    """One output of ``judge submit --format fmt`` (or a class file): UTF-8, parsed, the markup only as text."""
    text = data.decode("utf-8")  # strict: an output a reader cannot decode is an output lost
    if fmt == "json":
        json.dumps(json.loads(text), ensure_ascii=False).encode("utf-8")  # not even an escaped lone surrogate
        return
    assert not CONTROL.search(text), CONTROL.search(text)
    if fmt == "text":
        assert "<script>" in text
        return
    if fmt == "junit":
        check_junit(text)
        assert MARKUP in xml_text(read_xml(text))
        return
    parsed = read_html(text) if fmt == "html" else read_markdown(text)
    assert_nothing_injected(parsed)
    assert MARKUP in parsed.text


@pytest.mark.parametrize("attack, fmt", RUNS)
def test_judge_submit_writes_every_format_safely(attack, fmt, adversarial_root, tmp_path):
    submission = tmp_path / attack.path.name
    submission.write_text(attack.source(), encoding="utf-8", errors="surrogateescape")
    judged = subprocess.run([sys.executable, "-m", "judge", "submit", SLUG, str(submission), "--format", fmt],
                            capture_output=True, env=judge_env(adversarial_root), timeout=JUDGE_TIMEOUT_S)
    assert judged.returncode == 1, judged.stderr.decode(errors="replace")[-3000:]
    check_output(fmt, judged.stdout)
    if fmt == "json":
        assert json.loads(judged.stdout)["verdict"] == attack.verdict


STUDENTS = {
    os.fsdecode(b"not-utf8-\xff\xfe"): "99-markup-in-messages",
    "<img src=x onerror=alert(1)>": "100-markup-in-returned-keys",
    '=HYPERLINK("evil.example";"x")': "101-markup-as-an-unsupported-object",
    "new\nline \x1b[31mred\r": "102-markup-at-import",
    "]]><!-- & \"quoted' | `tick`": None,
}
"""file names (each ``<name>.py``) and which hostile submission each holds (None: the reference)"""


def check_class_folder(out: Path, names: dict[str, str]) -> None:
    """Every output ``judge grade`` writes for a class is there, parses, and shows each student id as text;
    ``names`` maps the ids to their verdicts."""
    index = read_html((out / "index.html").read_text(encoding="utf-8"))
    assert_nothing_injected(index, allowed=frozenset({"a", "svg"}))  # its links and charts
    assert {a["href"] for a in index.attributes if "href" in a} == {
        f"students/{url_path(name)}/report.html" for name in names}
    assert all(inline(name) in index.text for name in names)
    for name, verdict in names.items():
        report = read_html((out / "students" / name / "report.html").read_text(encoding="utf-8"))
        assert_nothing_injected(report)
        assert inline(name) in report.text and (verdict == "accepted" or MARKUP in report.text)
    junit = (out / "junit.xml").read_text(encoding="utf-8")
    check_junit(junit)
    assert {s.get("name") for s in read_xml(junit).iter("testsuite")} == {inline(name) for name in names}
    rows = read_csv((out / "summary.csv").read_text(encoding="utf-8"))
    columns = len(CSV_COLUMNS) + len(json.loads((out / "summary.json").read_text(encoding="utf-8"))["cases"])
    assert len(rows) == len(names) + 1 and all(len(row) == columns for row in rows)
    gradebook = read_csv((out / "gradebook.csv").read_text(encoding="utf-8"))
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows[1:] + gradebook[1:] for cell in row)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert {row["student"]: row["verdict"] for row in summary["students"]} == names


def test_judge_grade_writes_every_output_for_hostile_names_and_strings(adversarial_root, tmp_path):
    by_stem = {a.path.stem: a for a in HOSTILE}
    folder = tmp_path / "class"
    folder.mkdir()
    expected = {}
    for name, stem in STUDENTS.items():
        source = by_stem[stem].source() if stem else REFERENCE_SOURCE
        (folder / f"{name}.py").write_bytes(source.encode("utf-8", "surrogateescape"))
        expected[name] = by_stem[stem].verdict if stem else "accepted"
    out = tmp_path / "graded"
    grade = [sys.executable, "-m", "judge", "grade", SLUG, str(folder), "--out", str(out), "--allow-weak-sandbox"]
    graded = subprocess.run([*grade, "--jobs", "2"], capture_output=True, env=judge_env(adversarial_root),
                            timeout=10 * JUDGE_TIMEOUT_S)
    assert graded.returncode == 0, graded.stdout[-2000:] + graded.stderr[-3000:]
    assert not CONTROL.search(graded.stdout.decode("utf-8") + graded.stderr.decode("utf-8"))
    check_class_folder(out, expected)
    shutil.rmtree(out / "students" / os.fsdecode(b"not-utf8-\xff\xfe"))  # a result lost: judged again, and shown
    again = subprocess.run([*grade, "--csv-bom"], capture_output=True, env=judge_env(adversarial_root),
                           timeout=10 * JUDGE_TIMEOUT_S)
    assert again.returncode == 0, again.stderr[-3000:]
    assert (out / "summary.csv").read_bytes().startswith(b"\xef\xbb\xbfstudent,")
