"""``judge grade`` and ``judge merge`` through the real command line, on the toy problem.

The verdicts must be exactly those of ``judge submit``; a grade killed with SIGKILL must finish on a re-run with
every submission judged exactly once; shards must merge into the same class summary.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from judge.judging.verdict import ENDINGS, LIMIT_ENDINGS
from tests.support.cli import REFERENCE_SOURCE, SLUG, judge_env, judge_json, run_judge
from tests.support.readers import CONTROL
from tests.support.submissions import (EXITS_ON_BATCH_OF_SIX, GROWS, LOOPS, RAISES, RETURNS_BOOL, SLOW_ACCEPTED, WRONG,
                                       patched, write_files)


MIXED = {
    "ada.py": REFERENCE_SOURCE,
    "ben.py": WRONG,
    "cy.py": RAISES,
    "dee.py": EXITS_ON_BATCH_OF_SIX,
    "eve.py": RETURNS_BOOL,
    "fay.py": GROWS,
    "gus.py": LOOPS,
    "hal.py": "def broken(:\n",
    "ivy.py": "class Nope:\n    pass\n",
    "jo/solution.py": REFERENCE_SOURCE,
    "jo/helpers/notes.py": "# not the submission: solution.py is\n",
}
"""file -> source; students ada..jo, one of every verdict the toy problem can give"""
LIMIT_NOTES = {ending.value: ENDINGS[ending].verdict for ending in LIMIT_ENDINGS}
"""the ``exc`` of the judge's notes about its limits, and the verdict each means (the verdict module's table)"""
VOLATILE = {"execution_time", "cpu_time_s", "peak_memory_mb", "trace", "limit"}


def _normalised(value):
    """A report without what differs between two runs of the same submission: times, memory, tracebacks, and
    which of the CPU or the wall clock ran out first (that depends on the machine's load)."""
    if isinstance(value, dict):
        if value.get("exc") in LIMIT_NOTES:  # the verdict the ending means, not which budget ran out first
            value = {**value, "exc": LIMIT_NOTES[value["exc"]], "msg": None}
        return {k: v.split()[0] if k == "security_level" else _normalised(v)  # the level, not its reasons
                for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_normalised(v) for v in value]
    return value


def _results(out: Path) -> dict[str, dict]:
    return {p.parent.name: json.loads(p.read_text()) for p in (out / "students").glob("*/results.json")}


@pytest.fixture(scope="module")
def graded(mixed_root, tmp_path_factory):
    """The mixed class, graded once with two jobs, on the toy whose last case calls compute_gradient_stats alone;
    with entries that are not submissions beside it."""
    base = tmp_path_factory.mktemp("graded")
    submissions = write_files(base / "submissions", MIXED)
    (submissions / "kim.py").write_bytes(b"class Solution:\x00\n")
    (submissions / "lee.ipynb").write_text("{}")
    (submissions / ".DS_Store").write_text("")
    (submissions / "README.md").write_text("# marking notes\n")
    out = base / "out"
    result = run_judge(["grade", SLUG, str(submissions), "--out", str(out), "--jobs", "2"], mixed_root)
    return submissions, out, result


STUDENTS = ["ada", "ben", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo", "kim"]


def test_grade_gives_the_verdicts_of_judge_submit(mixed_root, graded):
    submissions, out, result = graded
    assert result.returncode == 0, result.stderr
    results = _results(out)
    assert sorted(results) == STUDENTS  # README.md, lee.ipynb and .DS_Store are not students
    for student, stored in results.items():
        grading = stored["grading"]
        assert grading["class_folder"] == str(submissions) and not Path(grading["source"]).is_absolute()
        if student == "kim":
            continue
        _, submitted = judge_json(["submit", SLUG, str(submissions / grading["source"])], mixed_root)
        graded_report = {k: v for k, v in stored.items() if k != "grading"}
        assert _normalised(graded_report) == _normalised(submitted), student
    assert results["jo"]["grading"]["source"] == "jo/solution.py"
    assert results["kim"]["verdict"] == "compile_error"  # 'judge submit' refuses it with exit 2; grading records it
    assert "not Python source" in results["kim"]["judge"]["startup_error"]["msg"]
    gus = [t["extra_data"] for t in results["gus"]["tests"]]  # a slow method costs only its own cases
    assert [t["verdict"] for t in gus] == ["time_limit_exceeded", "time_limit_exceeded", None, "accepted"]


def test_grade_writes_the_class_files(graded):
    submissions, out, result = graded
    assert "11 submissions" in result.stdout and "11 judged now, 0 unchanged" in result.stdout
    assert "skipped 3 entries that are not a submission: .DS_Store, README.md, lee.ipynb" in result.stdout
    rows = list(csv.DictReader((out / "summary.csv").open()))
    assert [r["student"] for r in rows] == STUDENTS
    by = {r["student"]: r for r in rows}
    assert by["gus"]["verdict"] == "time_limit_exceeded"
    assert (by["ada"]["points"], by["ada"]["max_points"], by["ada"]["percent"]) == ("3.0", "3.0", "100.0")
    assert (by["gus"]["points"], by["gus"]["percent"], by["gus"]["hidden/02-five"]) == ("1.0", "33.3", "not run")
    assert all(r["time_s"] == str(float(int(float(r["time_s"])))) for r in rows)  # one unit: whole seconds
    assert by["jo"]["source"] == "jo/solution.py"
    gradebook = list(csv.DictReader((out / "gradebook.csv").open()))
    assert [(g["student"], g["percent"]) for g in gradebook][:2] == [("ada", "100.0"), ("ben", "33.3")]
    assert by["gus"]["percent"] == by["ben"]["percent"]  # a slow method and a wrong one cost the same cases
    summary = json.loads((out / "summary.json").read_text())
    assert sum(summary["verdicts"].values()) == 11 and summary["points"] == 3.0 and not summary["exact_figures"]
    assert [k["entry"] for k in summary["skipped"]] == [".DS_Store", "README.md", "lee.ipynb"]
    assert [c["case"] for c in summary["cases"]] == ["sample/01-small", "hidden/01-six", "hidden/02-five",
                                                     "hidden/03-gradients-only"]
    assert all(0 <= c["rate"] <= 1 for c in summary["cases"])
    junit = (out / "junit.xml").read_text()
    assert junit.count("<testsuite ") == 11 and 'name="hidden/02-five"' in junit
    index = (out / "index.html").read_text()
    assert index.count("<svg") == 2 and "students/ada/report.html" in index and "README.md" in index
    for student in ("ada", "kim"):
        assert "<html" in (out / "students" / student / "report.html").read_text()
    assert result.stdout.count("\r") == 0  # no progress line when stdout is not a terminal


def test_instructors_may_see_exact_figures_and_students_never(mixed_root, graded, tmp_path):
    """results.json, what a student may be given, stays coarse; instructor.json beside it is exact, and
    --exact-figures shows it in every file of the run, saying so, without judging anything again."""
    submissions, out = (shutil.copytree(folder, tmp_path / folder.name) for folder in graded[:2])
    student = json.loads((out / "students" / "ada" / "results.json").read_text())
    exact = json.loads((out / "students" / "ada" / "instructor.json").read_text())
    hidden = [i for i, t in enumerate(student["tests"]) if t["extra_data"]["hidden"]]
    assert all(student["tests"][i]["extra_data"]["coarse"] and not exact["tests"][i]["extra_data"]["coarse"]
               for i in hidden)
    assert all(exact["tests"][i]["extra_data"]["cpu_time_s"] < student["tests"][i]["extra_data"]["cpu_time_s"]
               for i in hidden)  # a fast solution: its measure is below the quarter of the limit shown
    assert "exact here" not in (out / "students" / "ada" / "report.html").read_text()
    result = run_judge(["grade", SLUG, str(submissions), "--out", str(out), "--exact-figures"], mixed_root)
    assert "0 judged now, 11 unchanged" in result.stdout, result.stdout + result.stderr
    assert "exact here" in (out / "students" / "ada" / "report.html").read_text()
    assert "Exact figures" in (out / "index.html").read_text()
    assert json.loads((out / "summary.json").read_text())["exact_figures"]
    assert json.loads((out / "students" / "ada" / "results.json").read_text()) == student  # untouched
    junit = (out / "junit.xml").read_text()
    assert f'name="hidden/01-six" time="{exact["tests"][1]["extra_data"]["cpu_time_s"]}"' in junit
    back = run_judge(["grade", SLUG, str(submissions), "--out", str(out)], mixed_root)
    assert back.returncode == 0 and "exact here" not in (out / "students" / "ada" / "report.html").read_text()


def test_every_entry_judges_what_is_not_a_py_file(mixed_root, graded, tmp_path):
    submissions, out = (shutil.copytree(folder, tmp_path / folder.name) for folder in graded[:2])
    result = run_judge(["grade", SLUG, str(submissions), "--out", str(out), "--every-entry", "--points", "10"],
                       mixed_root)
    assert "13 submissions" in result.stdout and "2 judged now, 11 unchanged" in result.stdout, result.stdout
    results = _results(out)
    assert results["lee.ipynb"]["verdict"] == results["README.md"]["verdict"] == "compile_error"
    rows = {r["student"]: r for r in csv.DictReader((out / "summary.csv").open())}
    assert (rows["ada"]["points"], rows["ada"]["max_points"]) == ("10.0", "10.0")


def test_regrading_judges_only_what_changed(mixed_root, graded, tmp_path):
    submissions, out = (shutil.copytree(folder, tmp_path / folder.name) for folder in graded[:2])
    before = _results(out)
    (submissions / "ben.py").write_text(REFERENCE_SOURCE)
    result = run_judge(["grade", SLUG, str(submissions), "--out", str(out), "--jobs", "2"], mixed_root)
    assert "1 judged now, 10 unchanged" in result.stdout, result.stdout + result.stderr
    after = _results(out)
    assert after["ben"]["verdict"] == "accepted"
    assert {s: r["grading"]["run"] for s, r in after.items() if s != "ben"} == {
        s: r["grading"]["run"] for s, r in before.items() if s != "ben"}


def _worker_processes(under: Path) -> list[int]:
    """Processes whose working directory is under ``under``: the judge's zygotes and workers."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and Path(os.readlink(entry / "cwd")).is_relative_to(under):
                found.append(int(entry.name))
        except OSError:
            pass
    return found




def test_sigkill_halfway_then_rerun_judges_each_submission_once(toy_root, tmp_path):
    names = [f"s{i:02d}" for i in range(16)]
    submissions = write_files(tmp_path / "submissions", {
        f"{name}.py": (SLOW_ACCEPTED if i % 2 else WRONG) + f"\n# {name}\n" for i, name in enumerate(names)})
    out, scratch = tmp_path / "out", tmp_path / "scratch"
    scratch.mkdir()
    env = {**judge_env(toy_root), "TMPDIR": str(scratch)}
    argv = [sys.executable, "-m", "judge", "grade", SLUG, str(submissions), "--out", str(out), "--jobs", "2"]
    judge = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(list(out.glob("students/*/results.json"))) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    judge.send_signal(signal.SIGKILL)
    judge.communicate()
    first = {p.parent.name: p.read_bytes() for p in out.glob("students/*/results.json")}
    assert 5 <= len(first) < len(names), "the kill did not land halfway"
    for _ in range(100):  # the zygotes and workers die with the judge (PR_SET_PDEATHSIG)
        if not _worker_processes(scratch):
            break
        time.sleep(0.05)
    assert _worker_processes(scratch) == []

    assert list(scratch.iterdir()), "the killed judge left no scratch directory: the clean-up below proves nothing"
    result = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert list(scratch.iterdir()) == []  # the killed judge's scratch directories were removed at this start
    assert f"{len(names) - len(first)} judged now, {len(first)} unchanged" in result.stdout
    results = _results(out)
    assert sorted(results) == names
    for name, data in first.items():  # judged by the first run: kept as they were, not judged again
        assert (out / "students" / name / "results.json").read_bytes() == data
    runs = {json.loads(data)["grading"]["run"] for data in first.values()}
    second = [r for s, r in results.items() if s not in first]
    assert len(runs) == 1 and all(r["grading"]["run"] not in runs for r in second)
    assert len({r["grading"]["run"] for r in second}) == 1
    assert {s: r["verdict"] for s, r in results.items()} == {
        name: "accepted" if i % 2 else "wrong_answer" for i, name in enumerate(names)}
    assert list(out.glob("students/*/.*")) == []  # no temporary file left behind
    rows = list(csv.DictReader((out / "summary.csv").open()))
    assert [r["student"] for r in rows] == names

    again = run_judge(["grade", SLUG, str(submissions), "--out", str(out)], toy_root)
    assert f"0 judged now, {len(names)} unchanged" in again.stdout


NAMES = ["amy", "bob", "cal", "dan", "eli", "fox", "gil"]
"""the sharded class: amy, cal, eli and gil wrong, the others accepted"""


@pytest.fixture(scope="module")
def sharded(toy_root, tmp_path_factory):
    """The class of :data:`NAMES` graded in two shards, once for the module."""
    base = tmp_path_factory.mktemp("sharded")
    submissions = write_files(base / "submissions", {
        f"{name}.py": (REFERENCE_SOURCE if i % 2 else WRONG) + f"\n# {name}\n" for i, name in enumerate(NAMES)})
    parts = [base / f"part{k}" for k in (1, 2)]
    for k, part in enumerate(parts, start=1):
        result = run_judge(["grade", SLUG, str(submissions), "--out", str(part), "--shard", f"{k}/2"], toy_root)
        assert result.returncode == 0, result.stderr
    return submissions, parts


def test_shards_merge_into_the_whole_class(toy_root, sharded, tmp_path):
    names, (_, parts) = NAMES, sharded
    shard_students = [set(_results(p)) for p in parts]
    assert shard_students[0] and shard_students[1] and not shard_students[0] & shard_students[1]
    assert shard_students[0] | shard_students[1] == set(names)

    merged = tmp_path / "merged"
    result = run_judge(["merge", *map(str, parts), "--out", str(merged)], toy_root)
    assert result.returncode == 0, result.stderr
    summary = json.loads((merged / "summary.json").read_text())
    assert {r["student"]: r["verdict"] for r in summary["students"]} == {
        name: "accepted" if i % 2 else "wrong_answer" for i, name in enumerate(names)}
    assert summary["shard"] is None and summary["verdicts"] == {"accepted": 3, "wrong_answer": 4}
    assert sorted(_results(merged)) == names and (merged / "students" / "amy" / "report.html").exists()

    missing = run_judge(["merge", str(parts[0]), "--out", str(tmp_path / "bad")], toy_root)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
    assert "shard 2 of 2 is missing" in missing.stderr


def _copy_parts(parts: list[Path], to: Path) -> list[Path]:
    return [Path(shutil.copytree(p, to / p.name)) for p in parts]


def _edit_json(path: Path, edit) -> None:
    value = json.loads(path.read_text())
    edit(value)
    path.write_text(json.dumps(value))


def _merge_refused(parts: list[Path], out: Path, toy_root: Path, *expected: str) -> None:
    result = run_judge(["merge", *map(str, parts), "--out", str(out)], toy_root)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert all(text in result.stderr for text in expected), result.stderr
    assert not (out / "summary.json").exists()


def _as_other_problem(parts: list[Path]) -> list[Path]:
    _edit_json(parts[1] / "summary.json", lambda s: s["problem"].update(slug="dead-relu-detector"))
    return parts


def _as_other_split(parts: list[Path]) -> list[Path]:
    _edit_json(parts[1] / "summary.json", lambda s: s.update(shard="2/3"))
    return parts


def _given_twice(parts: list[Path]) -> list[Path]:
    return [parts[0], Path(shutil.copytree(parts[0], parts[0].with_name("again"))), parts[1]]


def _judged_otherwise(parts: list[Path]) -> list[Path]:
    """As a part graded with an edited copy of the package (other hidden cases) would be."""
    student = sorted((parts[1] / "students").iterdir())[0]
    _edit_json(student / "results.json", lambda r: r["grading"].update(judge_key="0" * 16))
    return parts


def _other_points(parts: list[Path]) -> list[Path]:
    _edit_json(parts[1] / "summary.json", lambda s: s.update(points=5.0))
    return parts


@pytest.mark.parametrize("change, expected", [
    (_as_other_problem, ("grades 'dead-relu-detector'", "merge the outputs of one problem")),
    (_as_other_split, ("is shard 2/3 but", "is shard 1/2", "merge the shards of one split")),
    (_given_twice, ("shard 1/2 appears twice",)),
    (_judged_otherwise, ("was judged with other cases, limits, device or judge than the students of",)),
    (_other_points, ("gives the problem 5.0 points", "give --points")),
], ids=["another problem", "another split", "a shard given twice", "judged otherwise", "other points"])
def test_merge_refuses_parts_that_are_not_one_class(toy_root, sharded, tmp_path, change, expected):
    """docs/grading.md: shards of different problems or splits, a shard given twice, students judged with other
    cases or another judge, different points."""
    _merge_refused(change(_copy_parts(sharded[1], tmp_path)), tmp_path / "merged", toy_root, *expected)


def test_merge_refuses_a_shard_whose_figures_do_not_follow_from_its_cases(toy_root, sharded, tmp_path):
    """A shard whose student was edited to accepted, every test still failed, merged as accepted."""
    parts = _copy_parts(sharded[1], tmp_path)
    part = next(p for p in parts if (p / "students" / "amy").is_dir())  # amy's answer is wrong
    results = part / "students" / "amy" / "results.json"
    assert json.loads(results.read_text())["verdict"] == "wrong_answer"
    _edit_json(results, lambda r: r.update(verdict="accepted"))
    _edit_json(part / "summary.json",
               lambda s: [row.update(verdict="accepted") for row in s["students"] if row["student"] == "amy"])
    _merge_refused(parts, tmp_path / "merged", toy_root, "amy", "verdict is stored as accepted", "wrong_answer")

    def passed_everything(report):  # the figures agree with each other, but not with the cases' verdicts
        report.update(verdict="accepted", passed=report["total"], score=float(report["total"]))
        for test in report["tests"]:
            test.update(status="passed", score=1.0)
    _edit_json(results, passed_everything)
    _merge_refused(parts, tmp_path / "merged", toy_root, "amy", "stored as passed but its verdict is wrong_answer")


HOSTILE_STORED = {
    "nan": lambda path: path.write_text(path.read_text().replace('"score": ', '"score": NaN, "was": ', 1)),
    "deep": lambda path: path.write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"),
    "fifo": lambda path: (path.unlink(), os.mkfifo(path)),
}
"""red team: stored files of a shard that ended merge in an internal error (NaN: ValueError, exit 3; nesting:
RecursionError, exit 3) or blocked it forever (a FIFO in place of instructor.json)"""


@pytest.mark.parametrize("hostile", sorted(HOSTILE_STORED))
def test_merge_answers_a_hostile_stored_file_in_one_line(toy_root, sharded, tmp_path, hostile):
    parts = _copy_parts(sharded[1], tmp_path)
    part = next(p for p in parts if (p / "students" / "amy").is_dir())
    HOSTILE_STORED[hostile](part / "students" / "amy" / "instructor.json")
    result = run_judge(["merge", *map(str, parts), "--out", str(tmp_path / "merged")], toy_root, timeout=120)
    assert result.returncode in (0, 2) and "internal error" not in result.stderr, result.stderr[-500:]
    assert result.returncode == 0 or result.stderr.count("\n") == 1, result.stderr


def test_a_forged_verdict_in_a_stored_result_stays_on_the_refusals_line(toy_root, sharded, tmp_path):
    """The refusal quotes the stored verdict inside a reason of its own (a message in a message): a newline and an
    escape there must not forge a line of the instructor's terminal."""
    parts = _copy_parts(sharded[1], tmp_path)
    part = next(p for p in parts if (p / "students" / "amy").is_dir())
    forged = "x\njudge: merged 7 students, every one accepted\x1b[2J"
    _edit_json(part / "students" / "amy" / "results.json", lambda r: r.update(verdict=forged))
    result = run_judge(["merge", *map(str, parts), "--out", str(tmp_path / "merged")], toy_root)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "x\\njudge: merged 7 students" in result.stderr and not CONTROL.search(result.stderr.rstrip("\n"))


def test_merge_refuses_a_shard_whose_source_is_not_the_file_judged(toy_root, sharded, tmp_path):
    submissions, parts = sharded
    source = submissions / "bob.py"
    kept = source.read_text()
    try:
        source.write_text(REFERENCE_SOURCE + "\n# edited after grading\n")
        _merge_refused(parts, tmp_path / "merged", toy_root, "bob", "bob.py is not the file that was judged")
    finally:
        source.write_text(kept)


PROBE = patched("""
import json, os
limits = open("/proc/self/limits").read()  # getrlimit is prlimit64, which the seccomp filter refuses
def is_open(fd):
    try:
        return bool(os.fstat(fd))
    except OSError:
        return False
# no /proc/self/fd (a new entry's inode number comes from a machine-wide counter), nor /proc/self/task
facts = {"fds": sum(map(is_open, range(1024))), "leader": os.getsid(0) == os.getpid(),
         "env": sorted(os.environ), "cwd": os.path.basename(os.getcwd())[:13], "limits": limits,
         "stdin": os.path.samestat(os.fstat(0), os.stat(os.devnull))}
raise ValueError(json.dumps(facts, sort_keys=True))
""")

POLLUTER = patched("""
import torch
torch.Tensor.std = lambda self, *a, **k: torch.tensor(0.0)
import builtins
builtins.LEAKED = True
return self._original_compute_activation_stats(*args)
""")


def test_a_forked_worker_is_confined_like_a_fresh_one_and_starts_clean(toy_root, tmp_path, monkeypatch):
    """At L1, where both are forked from the judge's own view (under L2 a fresh worker is bubblewrap's child,
    not a session leader, while a forked one is)."""
    monkeypatch.setenv("JUDGE_MAX_LEVEL", "L1")
    submissions = write_files(tmp_path / "submissions", {"a-probe.py": PROBE, "b-polluter.py": POLLUTER,
                                                   "c-clean.py": REFERENCE_SOURCE + "\nimport builtins\n"
                                                   "assert not hasattr(builtins, 'LEAKED')\n"})
    out = tmp_path / "out"
    result = run_judge(["grade", SLUG, str(submissions), "--out", str(out), "--jobs", "1"], toy_root)
    assert result.returncode == 0, result.stderr
    results = _results(out)
    assert results["b-polluter"]["verdict"] == "wrong_answer"
    assert results["c-clean"]["verdict"] == "accepted"  # nothing the polluter did reached the next worker

    def facts(report: dict) -> dict:
        return json.loads(report["tests"][0]["extra_data"]["calls"][0]["error"]["msg"])

    _, fresh = judge_json(["submit", SLUG, str(submissions / "a-probe.py")], toy_root)
    assert facts(results["a-probe"]) == facts(fresh)
    assert facts(fresh)["leader"] and facts(fresh)["cwd"] == "judge-worker-"


@pytest.mark.parametrize("args, message", [
    (["grade", SLUG, "/no/such/folder", "--out", "OUT"], "no such folder"),
    (["grade", SLUG, "SUBMISSIONS", "--out", "OUT", "--shard", "3/2"], "--shard wants K/N"),
    (["grade", SLUG, "SUBMISSIONS", "--out", "OUT", "--shard", " 1/2"], "--shard wants K/N"),
    (["grade", SLUG, "SUBMISSIONS", "--out", "OUT", "--shard", "auto"], "--shard auto needs --shards N"),
    (["grade", SLUG, "SUBMISSIONS", "--out", "OUT", "--shard", "auto", "--shards", "08"], "--shards wants"),
    (["grade", SLUG, "SUBMISSIONS", "--out", "OUT", "--jobs", "0"], "argument --jobs: wants a positive number"),
    (["verify", SLUG, "--jobs", "-1"], "argument --jobs: wants a positive number"),
    (["mutate", SLUG, "--max", "two"], "argument --max: wants a positive number of mutants, not two"),
    (["grade", "no-such-problem", "SUBMISSIONS", "--out", "OUT"], "unknown problem"),
    (["merge", "SUBMISSIONS", "--out", "OUT"], "holds no summary.json"),
], ids=["missing-folder", "bad-shard", "bad-shard-space", "auto-without-count", "bad-count", "bad-jobs", "verify-bad-jobs", "mutate-bad-max", "unknown-problem", "merge-not-graded"])
def test_bad_input_is_one_line_and_exit_2(toy_root, tmp_path, args, message):
    (tmp_path / "submissions").mkdir()
    (tmp_path / "submissions" / "a.py").write_text(REFERENCE_SOURCE)
    args = [a.replace("SUBMISSIONS", str(tmp_path / "submissions")).replace("OUT", str(tmp_path / "out"))
            for a in args]
    result = run_judge(args, toy_root)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


ZYGOTE_KILLER = patched("""
import os, signal
os.kill(os.getppid(), signal.SIGKILL)
""")


def test_a_submission_that_kills_the_warm_worker_is_not_blamed_and_stops_nothing(toy_root, tmp_path, monkeypatch):
    """Without seccomp (L0) and without private mounts a worker can signal the warm process it was forked from;
    from L1 on it cannot, nor in a PID namespace of its own (the next test)."""
    monkeypatch.setenv("JUDGE_MAX_LEVEL", "L0")
    monkeypatch.setenv("JUDGE_PRIVATE_MOUNTS", "off")
    submissions = write_files(tmp_path / "submissions", {"a-killer.py": ZYGOTE_KILLER, "b-fine.py": REFERENCE_SOURCE})
    out = tmp_path / "out"
    refused = run_judge(["grade", SLUG, str(submissions), "--out", str(out), "--jobs", "1"], toy_root)
    assert refused.returncode == 2 and "--allow-weak-sandbox" in refused.stderr and not out.exists()
    result = run_judge(["grade", SLUG, str(submissions), "--out", str(out), "--jobs", "1", "--allow-weak-sandbox"],
                       toy_root)
    assert result.returncode == 3 and "internal_error" in result.stderr
    results = _results(out)
    assert results["a-killer"]["verdict"] == "internal_error"  # retried on the next run, never a verdict
    assert results["b-fine"]["verdict"] == "accepted"  # a new warm worker took over
    assert "NOT protected" in results["b-fine"]["judge"]["security_level"]


@pytest.mark.skipif(os.geteuid() != 0, reason="private mounts need root below L2")
def test_a_worker_in_its_own_pid_namespace_cannot_name_the_warm_worker(toy_root, tmp_path, monkeypatch):
    """With private mounts a forked worker is pid 1 of a PID namespace of its own (judge.worker.pidns): its parent
    is outside it, so ``getppid()`` is 0, and the killer's ``kill(0, SIGKILL)`` goes to its own process group,
    whose leader, its namespace's init, takes no signal sent from inside: the zygote lives, the judge is not
    blamed, and the killer is judged on what it returned."""
    monkeypatch.setenv("JUDGE_MAX_LEVEL", "L0")
    submissions = write_files(tmp_path / "submissions", {"a-killer.py": ZYGOTE_KILLER, "b-fine.py": REFERENCE_SOURCE})
    out = tmp_path / "out"
    result = run_judge(["grade", SLUG, str(submissions), "--out", str(out), "--jobs", "1", "--allow-weak-sandbox"],
                       toy_root)
    assert result.returncode == 0, result.stderr
    assert {name: r["verdict"] for name, r in _results(out).items()} == {  # the killer's method then returns None
        "a-killer": "output_format_error", "b-fine": "accepted"}
