"""The grading package's rules, without running a worker: discovery, shards, the store, the summary."""

from __future__ import annotations

import csv
import io
import json
import socket
from pathlib import Path

import pytest

from judge.errors import BadInput
from judge.grading.discover import Submission, discover, load
from judge.grading.shard import Shard
from judge.grading.store import EXACT, RESULTS, Store, with_grading
from judge.grading.render import CSV_COLUMNS, GRADEBOOK_COLUMNS, gradebook_csv, summary_csv
from judge.grading.summary import ClassSummary, summarise


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_discover_finds_every_student_and_the_file_to_judge(tmp_path):
    root = _tree(tmp_path / "class", {
        "ann.py": "", "bo.txt": "", ".DS_Store": "", "__MACOSX/x.py": "",
        "cat/deep/work.py": "", "cat/.hidden/skip.py": "", "cat/__pycache__/x.py": "",
        "dan/a.py": "", "dan/sub/solution.py": "", "dan/b/toy.py": "",
        "eli/a.py": "", "eli/b.py": "",
        "fay/notes.md": "",
    })
    discovered = discover(root, "toy")
    found = {s.student: s for s in discovered.submissions}
    assert list(found) == ["ann", "cat", "dan", "eli", "fay"]
    assert found["cat"].path == root / "cat/deep/work.py" and found["cat"].unjudgeable is None
    assert found["dan"].path == root / "dan/b/toy.py"  # named like the problem, nearest the top
    assert "2 .py files" in found["eli"].unjudgeable and "a.py, b.py" in found["eli"].unjudgeable
    assert "no .py file" in found["fay"].unjudgeable
    assert "fay" not in {s.student for s in discover(root, "toy", skip=root / "fay").submissions}  # --out inside


def test_entries_that_are_not_submissions_are_listed_as_skipped_unless_asked(tmp_path):
    """A stray README.md once became a student with 0 of 29."""
    root = _tree(tmp_path / "class", {"ann.py": "", "README.md": "# marks", "bo.txt": "", ".DS_Store": "",
                                      "__MACOSX/x.py": "", "cat/solution.py": ""})
    (root / "dan.py").symlink_to(root / "ann.py")  # a link is a submission: refused, unread, when judged
    (root / "eve").symlink_to(root / "cat")
    (root / "notes.txt").symlink_to(root / "README.md")
    discovered = discover(root, "toy")
    assert [s.student for s in discovered.submissions] == ["ann", "cat", "dan", "eve"]
    assert [(k.entry, "not a .py file" in k.reason) for k in discovered.skipped] == [
        (".DS_Store", False), ("README.md", True), ("__MACOSX", False), ("bo.txt", True), ("notes.txt", True)]
    every = discover(root, "toy", every_entry=True)
    assert [s.student for s in every.submissions] == ["README.md", "ann", "bo.txt", "cat", "dan", "eve", "notes.txt"]
    assert [k.entry for k in every.skipped] == [".DS_Store", "__MACOSX"]  # hidden names never are submissions
    assert "not Python source" in load(next(s for s in every.submissions if s.student == "bo.txt")).unjudgeable


@pytest.mark.parametrize("files, key", [({"x.py": "", "x/solution.py": ""}, "duplicate_student"),
                                        ({".hidden.py": ""}, "submissions_empty"),
                                        ({"README.md": ""}, "submissions_empty")])
def test_discover_rejects_what_it_cannot_grade(tmp_path, files, key):
    with pytest.raises(BadInput) as error:
        discover(_tree(tmp_path / "class", files), "toy")
    assert error.value.key == key


def test_the_content_hash_follows_the_bytes_not_the_folder(tmp_path):
    def key(root: Path, text: str) -> str:
        _tree(root, {"ann.py": text})
        return load(Submission("ann", root / "ann.py")).content_sha256

    assert key(tmp_path / "a", "x = 1\n") == key(tmp_path / "b", "x = 1\n") != key(tmp_path / "c", "x = 2\n")


@pytest.mark.parametrize("text, accepted", [
    ("1/2", True), ("2/2", True), ("1/1", True), ("7/10", True), ("100000/100000", True),
    ("0/2", False), ("3/2", False), ("2", False), ("a/b", False), ("1/0", False), ("", False),
    (" 1/2", False), ("1/2 ", False), ("1 / 2", False), ("01/2", False), ("1/02", False), ("+1/2", False),
    ("-1/2", False), ("1_0/20", False), ("\u0661/\u0662", False), ("\uff11/2", False), ("1\uff0f2", False),
    ("\xb9/2", False), ("1/2\n", False), ("1//2", False), ("1/2/3", False), ("auto", False),
    ("1/100001", False), ("1/" + "9" * 5000, False),
])
def test_shard_specs_are_read_strictly(text, accepted):
    """Plain ASCII digits, 1 <= K <= N <= 100000, nothing int() would stretch; a refusal is one BadInput line."""
    if accepted:
        shard = Shard.parse(text)
        assert str(shard) == text, "what a shard's summary stores reads back the same"
        return
    with pytest.raises(BadInput) as caught:
        Shard.parse(text)
    assert caught.value.key == "bad_shard"


@pytest.mark.parametrize("stored", [" 1/2", "01/2", "auto", 1, ["1/2"]])
def test_merge_reads_a_stored_shard_as_strictly_as_the_command_line(tmp_path, stored):
    """A summary whose shard is not what --shard writes is not a shard's output (never read from the scheduler)."""
    from judge.grading.run import merge_folders

    meta = {"problem": {"slug": "p", "title": "P"}, "students": []}
    for k, shard in (("a", stored), ("b", "2/2")):
        (tmp_path / k).mkdir()
        (tmp_path / k / "summary.json").write_text(json.dumps({**meta, "shard": shard}))
    with pytest.raises(BadInput) as caught:
        merge_folders([tmp_path / "a", tmp_path / "b"], tmp_path / "out")
    assert caught.value.key == "merge_not_graded" and caught.value.fields["path"] == tmp_path / "a"


@pytest.mark.parametrize("count", [1, 2, 3, 7])
def test_shards_partition_the_class(count):
    students = [f"student-{i}" for i in range(200)]
    owners = [[k for k in range(1, count + 1) if Shard.parse(f"{k}/{count}").holds(s)] for s in students]
    assert all(len(o) == 1 for o in owners)
    assert len({o[0] for o in owners}) == count


def _report(student: str, verdict: str, passed: list[bool], seconds: float = 0.1) -> dict:
    tests = [{"status": "passed" if ok else "failed",
              "extra_data": {"case": f"c{i}", "hidden": i > 0, "verdict": "accepted" if ok else "wrong_answer"}}
             for i, ok in enumerate(passed)]
    return {"verdict": verdict, "passed": sum(passed), "total": len(passed), "score": float(sum(passed)),
            "max_score": float(len(passed)), "execution_time": seconds, "tests": tests,
            "grading": {"student": student, "source": f"{student}.py"}}


def test_the_store_keeps_what_still_holds_and_the_instructors_exact_copy(tmp_path):
    store = Store(tmp_path / "out")
    root = _tree(tmp_path / "class", {"ann/final/ann.py": "x = 1\n"})
    loaded = load(Submission("ann", root / "ann/final/ann.py"))
    assert store.current(loaded, "k1") is None
    exact = with_grading(_report("ann", "accepted", [True], 1.234), loaded, "k1", "run1", root)
    assert (exact["grading"]["source"], exact["grading"]["class_folder"]) == ("ann/final/ann.py", str(root))
    store.save({**exact, "execution_time": 2.0}, exact)
    assert store.current(loaded, "k1")["grading"]["run"] == "run1"
    assert store.load("ann")["execution_time"] == 2.0 and store.load_exact("ann")["execution_time"] == 1.234
    assert store.current(loaded, "k2") is None  # the problem or the judge changed
    store.save(with_grading(_report("ann", "internal_error", []), loaded, "k1", "run2", root))
    assert store.current(loaded, "k1") is None  # the judge's own failure is retried
    assert store.load_exact("ann") is None  # the copy beside it is of another judgement: never shown for it
    assert sorted(p.name for p in (tmp_path / "out/students/ann").iterdir()) == [EXACT, RESULTS]


def test_the_store_removes_what_a_killed_judge_left_half_written(tmp_path):
    folder = tmp_path / "out/students/ann"
    folder.mkdir(parents=True)
    dead = folder / f".{RESULTS}~{socket.gethostname()}~999999999~1.tmp"
    elsewhere = folder / f".{RESULTS}~another-host~1~1.tmp"
    for tmp in (dead, elsewhere):
        tmp.write_text("{")
    Store(tmp_path / "out")
    assert not dead.exists() and elsewhere.exists()


def test_the_summary_counts_verdicts_and_case_pass_rates():
    summary = summarise("toy", "Toy", None, [_report("b", "wrong_answer", [True, False]),
                                             _report("a", "accepted", [True, True]),
                                             _report("c", "compile_error", [False, False])])
    assert [r.student for r in summary.rows] == ["a", "b", "c"]
    assert [(r.points, r.max_points, r.percent) for r in summary.rows] == [(1.0, 1.0, 100.0), (0.0, 1.0, 0.0),
                                                                           (0.0, 1.0, 0.0)]  # samples earn none
    assert summary.verdicts == {"accepted": 1, "wrong_answer": 1, "compile_error": 1}
    assert [(c.case, c.passed, c.students, c.hidden) for c in summary.cases] == [("c0", 2, 3, False),
                                                                               ("c1", 1, 3, True)]
    assert json.loads(json.dumps(summary.as_json()))["cases"][1]["rate"] == 0.3333


def _class_of_three(**options) -> ClassSummary:
    reports = [_report("ann", "accepted", [True, True, True], 1.02), _report("=bob", "wrong_answer", [True, True, False]),
               _report("cy", "internal_error", [])]
    reports[1]["tests"][2]["extra_data"]["verdict"] = None  # not run
    return summarise("toy", "Toy", None, reports, **options)


def test_summary_csv_gives_points_a_percentage_one_time_unit_and_a_column_per_case():
    rows = list(csv.DictReader(io.StringIO(summary_csv(_class_of_three(points=10)))))
    assert list(rows[0]) == [*CSV_COLUMNS, "c0", "c1", "c2"]
    bob, ann, cy = rows  # sorted by id: '=' before letters
    assert (ann["points"], ann["max_points"], ann["percent"], ann["time_s"]) == ("10.0", "10", "100.0", "2.0")
    assert (bob["student"], bob["points"], bob["percent"], bob["c1"], bob["c2"]) == ("'=bob", "5.0", "50.0",
                                                                                     "accepted", "not run")
    assert (cy["verdict"], cy["c0"], ann["source"]) == ("internal_error", "", "ann.py")
    exact = list(csv.DictReader(io.StringIO(summary_csv(_class_of_three(exact=True)))))
    assert [r["time_s"] for r in exact] == ["0.1", "1.02", "0.1"]  # as measured; else whole seconds rounded up


def test_the_gradebook_is_moodles_csv_and_leaves_out_the_judges_failures():
    """Moodle's importer (grade/import/csv/classes/load_data.php) refuses the whole file for a row whose user it
    cannot find and a grade it cannot read as a number: every row is a student with an answer, every grade one."""
    rows = list(csv.reader(io.StringIO(gradebook_csv(_class_of_three(points=4)))))
    assert rows == [list(GRADEBOOK_COLUMNS), ["'=bob", "50.0", "2.0", "wrong_answer: 2/3 cases passed"],
                    ["ann", "100.0", "4.0", "accepted: 3/3 cases passed"]]
    assert all(float(row[1]) <= 100 for row in rows[1:])