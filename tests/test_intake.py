"""A class folder is untrusted input: what ``judge grade`` reads of it, and what one student's files can cost others.

Every hostile entry (links to ``/etc/shadow``, ``/proc/self/status``, a hidden case and the reference, a hard link to
the reference, a FIFO, a link to ``/dev/zero``, a device, a socket, a 1 GB sparse file, names with markup, newlines
and invalid UTF-8) is graded through the real command line: each gets its own clear verdict, the honest students
theirs, every class output is written and parses, and nothing but a student's own file is quoted anywhere.
"""

from __future__ import annotations

import csv
import io
import json
import os
import socket
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from judge.errors import BadInput
from judge.judging import intake
from tests.support.cli import REFERENCE_SOURCE, SLUG, judge_env, run_judge

MARKER = "ZZ-NOT-THE-STUDENTS-OWN-7f3a"
"""in every file a hostile entry points at; it may appear in no output"""

# -- the reading itself ------------------------------------------------------------------------------------------


def _refusal(path: Path, **options) -> str:
    with pytest.raises(BadInput) as caught:
        intake.read_file(path, **options)
    return caught.value.key


def test_only_a_regular_file_with_one_name_is_read(tmp_path):
    other = tmp_path / "other.py"
    other.write_text(f"# {MARKER}\n")
    (tmp_path / "own.py").write_text("x = 1\n")
    (tmp_path / "link.py").symlink_to(other)
    os.link(other, tmp_path / "hard.py")
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    os.mknod(tmp_path / "null.py", 0o600 | stat.S_IFCHR, os.makedev(1, 3)) if os.geteuid() == 0 else None
    with open(tmp_path / "big.py", "wb") as f:
        f.truncate(1 << 30)  # sparse: costs no disk
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "inner.py").write_text("y = 2\n")
    (tmp_path / "linked-dir").symlink_to(tmp_path / "dir")
    assert intake.read_file(tmp_path / "own.py", beneath=tmp_path) == b"x = 1\n"
    assert intake.read_file(tmp_path / "dir" / "inner.py", beneath=tmp_path) == b"y = 2\n"
    refused = {name: _refusal(tmp_path / name, beneath=tmp_path)
               for name in ("link.py", "hard.py", "fifo.py", "zero.py", "big.py", "dir", "linked-dir/inner.py")}
    assert refused == {"link.py": "file_is_link", "hard.py": "file_hard_linked", "fifo.py": "file_not_regular",
                       "zero.py": "file_is_link", "big.py": "file_too_big", "dir": "file_is_dir",
                       "linked-dir/inner.py": "file_is_link"}
    if os.geteuid() == 0:
        assert _refusal(tmp_path / "null.py", beneath=tmp_path) == "file_not_regular"


def test_the_cap_holds_for_a_file_that_grows_while_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "grows.py"
    path.write_bytes(b"#" * 10)
    real_fstat = os.fstat

    def grown(fd):  # listed small; by the time it is read it is past the cap
        with open(path, "ab") as f:
            f.write(b"#" * (intake.MAX_SUBMISSION_BYTES + 10 - f.tell()))
        return real_fstat(fd)

    monkeypatch.setattr(intake.os, "fstat", grown)
    assert _refusal(path) == "file_too_big"


def test_a_file_swapped_after_it_was_listed_is_refused(tmp_path, monkeypatch):
    path, other = tmp_path / "a.py", tmp_path / "b.py"
    path.write_text("x = 1\n")
    other.write_text(f"# {MARKER}\n")
    real_open = intake._open

    def swapped(*args):
        os.replace(other, path)
        return real_open(*args)

    monkeypatch.setattr(intake, "_open", swapped)
    assert _refusal(path) == "file_changed"


def test_the_command_line_follows_the_learners_own_link_but_still_refuses_a_fifo(tmp_path):
    """A learner's symlink to their own file is fine: the judge runs with their rights, so it can show them only
    what they can read anyway. A FIFO or a device would still hang or flood the judge."""
    (tmp_path / "mine.py").write_text("x = 1\n")
    (tmp_path / "link.py").symlink_to(tmp_path / "mine.py")
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    assert intake.read_file(tmp_path / "link.py", follow=True) == b"x = 1\n"
    assert _refusal(tmp_path / "fifo.py", follow=True) == "file_not_regular"
    assert _refusal(tmp_path / "zero.py", follow=True) == "file_not_regular"


def test_judge_submit_refuses_a_fifo_in_one_line(toy_root, tmp_path):
    os.mkfifo(tmp_path / "fifo.py")
    result = run_judge(["submit", SLUG, str(tmp_path / "fifo.py")], toy_root, timeout=120)
    assert result.returncode == 2 and "not a regular file" in result.stderr and "Traceback" not in result.stderr


# -- a hostile class, through judge grade ------------------------------------------------------------------------

HONEST = {"ok": "ok.py", "markup": "<img src=x onerror=alert(1)>&amp;<script>.py", "newline": "new\nline.py"}
"""student id -> file name of students who hand in the reference solution"""

REFUSED = {
    "shadow": "file_is_link", "proc-status": "file_is_link", "hidden-case": "file_is_link", "reference": "file_is_link",
    "hard-reference": "file_hard_linked", "fifo": "file_not_regular", "dev-zero": "file_is_link",
    "socket": "file_not_regular", "big": "file_too_big", "linked-folder": "file_is_link", "in-folder": "file_is_link",
}
"""student id -> why their entry is refused unread"""


def _hostile_class(toy_root: Path, base: Path) -> Path:
    secrets = base / "elsewhere"
    secrets.mkdir()
    reference = secrets / "reference.py"
    reference.write_text(REFERENCE_SOURCE + f"\n# {MARKER}\n")
    (secrets / "holds").mkdir()
    (secrets / "holds" / "solution.py").write_text(REFERENCE_SOURCE + f"\n# {MARKER}\n")
    hidden = next((toy_root / "problems" / SLUG / "cases").rglob("*.json"))
    folder = base / "class"
    folder.mkdir()
    for name in HONEST.values():
        (folder / name).write_text(REFERENCE_SOURCE)
    (folder / os.fsdecode(b"caf\xe9-\xff.py")).write_text(REFERENCE_SOURCE)  # invalid UTF-8: a surrogate-escaped str
    (folder / "shadow.py").symlink_to("/etc/shadow")
    (folder / "proc-status.py").symlink_to("/proc/self/status")
    (folder / "hidden-case.py").symlink_to(hidden)
    (folder / "reference.py").symlink_to(reference)
    os.link(reference, folder / "hard-reference.py")
    os.mkfifo(folder / "fifo.py")
    (folder / "dev-zero.py").symlink_to("/dev/zero")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(folder / "socket.py"))
    listener.close()
    with open(folder / "big.py", "wb") as f:
        f.truncate(1 << 30)
    (folder / "linked-folder").symlink_to(secrets / "holds")
    (folder / "in-folder").mkdir()
    (folder / "in-folder" / "solution.py").symlink_to(reference)
    return folder


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.append(tag)


@pytest.fixture(scope="module")
def hostile(toy_root, tmp_path_factory):
    base = tmp_path_factory.mktemp("hostile")
    folder = _hostile_class(toy_root, base)
    out = base / "out"
    result = run_judge(["grade", SLUG, str(folder), "--out", str(out), "--jobs", "2"], toy_root, timeout=900)
    return folder, out, result


def test_a_hostile_class_is_graded_with_a_clear_verdict_each(hostile):
    folder, out, result = hostile
    assert result.returncode == 0, result.stderr
    stored = [json.loads(p.read_bytes()) for p in (out / "students").glob("*/results.json")]
    verdicts = {r["grading"]["student"]: r for r in stored}
    assert len(stored) == len(HONEST) + 1 + len(REFUSED)
    honest = {s: r["verdict"] for s, r in verdicts.items() if s not in REFUSED}
    assert len(honest) == len(HONEST) + 1 and set(honest.values()) == {"accepted"}, honest
    for student, key in REFUSED.items():
        report = verdicts[student]
        assert report["verdict"] == "compile_error", student
        text = json.dumps(report)
        wanted = {"file_is_link": "symbolic link", "file_hard_linked": "hard links",
                  "file_not_regular": "not a regular file", "file_too_big": "bytes a submission may have"}[key]
        assert wanted in text, (student, text[:2000])


def test_no_output_quotes_anything_but_a_students_own_file(hostile, toy_root):
    folder, out, result = hostile
    hidden = next((toy_root / "problems" / SLUG / "cases").rglob("*.json")).read_text()
    forbidden = [MARKER, "VmPeak", "TracerPid", hidden[:60]]
    try:
        forbidden.append(Path("/etc/shadow").read_text().splitlines()[0])  # root:<hash>:<date>:...
    except (OSError, IndexError):
        pass
    files = [p for p in out.rglob("*") if p.is_file()]
    assert files
    for path in files:
        text = path.read_bytes().decode("utf-8", "replace")
        for secret in filter(None, forbidden):
            assert secret not in text, (path, secret)
    assert MARKER not in result.stdout + result.stderr


def test_every_class_output_is_written_and_parses(hostile):
    folder, out, result = hostile
    for path in out.rglob("*.json"):
        json.loads(path.read_bytes().decode("utf-8"))  # strict UTF-8: no lone surrogate written
    rows = list(csv.DictReader(io.StringIO((out / "summary.csv").read_text(encoding="utf-8-sig"))))
    assert len(rows) == len(HONEST) + 1 + len(REFUSED)
    junit = ET.parse(next(out.rglob("*.xml"))).getroot()
    assert len(list(junit.iter("testcase"))) >= len(rows)
    for page in out.rglob("*.html"):
        parser = _Text()
        parser.feed(page.read_text(encoding="utf-8"))
        assert "script" not in parser.tags, page  # the markup name is text, never a tag


def test_the_served_class_view_shows_only_the_code_that_was_judged(hostile):
    """``judge serve --class`` shows each student's file beside their report: only a file read as the grading read
    it, and only while it still has the judged bytes (a link swapped in afterwards shows nothing)."""
    from judge.serve.class_view import _judged_code

    folder, out, _ = hostile
    reports = {r["grading"]["student"]: r for r in
               (json.loads(p.read_bytes()) for p in (out / "students").glob("*/results.json"))}
    shown = {student: _judged_code(report) for student, report in reports.items()}
    assert {s for s, code in shown.items() if code is not None} == {s for s in reports if s not in REFUSED}
    assert all(code == REFERENCE_SOURCE for code in shown.values() if code is not None)
    (folder / "ok.py").unlink()
    (folder / "ok.py").symlink_to(folder.parent / "elsewhere" / "reference.py")
    assert _judged_code(reports["ok"]) is None


def test_the_1_gb_file_costs_the_judge_no_memory(toy_root, tmp_path):
    """Only the lstat of the file is taken: the judge's peak memory (its own and its workers', the largest of
    them) stays that of an interpreter with torch, far below the file's size."""
    folder = tmp_path / "class"
    folder.mkdir()
    with open(folder / "big.py", "wb") as f:
        f.truncate(1 << 30)
    measure = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
               "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    result = subprocess.run([sys.executable, "-c", measure, sys.executable, "-m", "judge", "grade", SLUG, str(folder),
                             "--out", str(tmp_path / "out"), "--jobs", "1"], capture_output=True, text=True,
                            env=judge_env(toy_root), timeout=600)
    code, peak_kib = map(int, result.stdout.split()[-2:])
    assert code == 0, result.stderr
    assert peak_kib < 700 << 10, peak_kib


# -- one student's code never reaches the next -------------------------------------------------------------------

THIEF = (Path(__file__).parent / "adversarial" / "classes" / "thief.py").read_text()
PAIRS = 10


def _victim(index: int) -> str:
    return REFERENCE_SOURCE + f'\n# VICTIM-SECRET-{index:02d}-END\nMARK = "VICTIM-SECRET-{index:02d}-END"\n'


@pytest.mark.parametrize("max_level", [None, pytest.param("L1", marks=pytest.mark.slow)], ids=["strongest", "L1"])
def test_no_thief_finds_the_previous_students_code(toy_root, tmp_path, max_level):
    """Victims and thieves alternate in one job slot, so every thief is forked from the warm process that forked
    the victim just before it; a thief answers ``runtime_error`` when it finds a victim's marker in its memory or
    in a file, and ``output_format_error`` when its scanner cannot even find a marker of its own. With the zygote
    copying the submission itself (as before this test), at least 3 of the 10 thieves found it at L2."""
    folder = tmp_path / "class"
    folder.mkdir()
    for i in range(PAIRS):
        (folder / f"s{2 * i:02d}-victim.py").write_text(_victim(i))
        (folder / f"s{2 * i + 1:02d}-thief.py").write_text(REFERENCE_SOURCE + "\n" + THIEF)
    env_level = {} if max_level is None else {"JUDGE_MAX_LEVEL": max_level}
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "judge", "grade", SLUG, str(folder), "--out", str(out),
                             "--jobs", "1"], capture_output=True, text=True, env={**judge_env(toy_root), **env_level},
                            timeout=900)
    assert result.returncode == 0, result.stderr
    verdicts = {p.parent.name: json.loads(p.read_text())["verdict"] for p in out.glob("students/*/results.json")}
    assert {v for s, v in verdicts.items() if s.endswith("victim")} == {"accepted"}, verdicts
    thieves = {s: v for s, v in verdicts.items() if s.endswith("thief")}
    assert len(thieves) == PAIRS and set(thieves.values()) == {"wrong_answer"}, thieves
    for path in out.glob("students/*thief/*"):
        assert "VICTIM-SECRET" not in path.read_text(errors="replace"), path


# -- what a report's figures can carry back ----------------------------------------------------------------------


def test_a_hidden_figure_carries_at_most_2_bits():
    """Whatever CPU time or memory a submission spends on a hidden case (to encode what it saw), the report can
    give back one of 4 values a figure; every one of them is an upper bound of what was spent."""
    from judge.report.build import HIDDEN_STEPS, coarse

    limit = 1.7
    spent = [limit * 1.5 * i / 10_000 for i in range(10_001)]
    shown = [coarse(v, limit) for v in spent]
    assert len(set(shown)) == HIDDEN_STEPS == 4
    assert all(s >= v for s, v in zip(shown, spent) if v <= limit) and max(shown) == limit


def test_reports_give_hidden_figures_coarse_and_visible_ones_exact(hostile):
    folder, out, _ = hostile
    report = json.loads((out / "students" / "ok" / "results.json").read_text())
    for test in report["tests"]:
        extra = test["extra_data"]
        assert extra["coarse"] is extra["hidden"]
        figures = [(extra["cpu_time_s"], extra["time_limit_s"]), (extra["peak_memory_mb"], extra["memory_limit_mb"]),
                   *((c["cpu_time_s"], extra["time_limit_s"]) for c in extra["calls"] if not extra["hidden"])]
        if extra["hidden"]:  # a hidden call has no time of its own: 2 more bits a call
            assert all("cpu_time_s" not in c for c in extra["calls"]), extra["case"]
        on_steps = [abs(v / (limit / 4) - round(v / (limit / 4))) < 1e-3 for v, limit in figures]
        assert all(on_steps) if extra["hidden"] else not all(on_steps), (extra["case"], figures)
    assert report["execution_time"] == int(report["execution_time"])
    text = (out / "students" / "ok" / "report.html").read_text()
    assert "≤" in text
