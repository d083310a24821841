"""The grading package's rules, without running a worker: discovery, shards, the store, the summary."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from judge.errors import BadInput
from judge.grading.discover import Submission, discover, load
from judge.grading.shard import Shard
from judge.grading.store import RESULTS, Store, with_grading
from judge.grading.summary import summarise


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
    found = {s.student: s for s in discover(root, "toy")}
    assert list(found) == ["ann", "bo.txt", "cat", "dan", "eli", "fay"]
    assert found["cat"].path == root / "cat/deep/work.py" and found["cat"].unjudgeable is None
    assert found["dan"].path == root / "dan/b/toy.py"  # named like the problem, nearest the top
    assert "2 .py files" in found["eli"].unjudgeable and "a.py, b.py" in found["eli"].unjudgeable
    assert "no .py file" in found["fay"].unjudgeable
    assert "not Python source" in load(found["bo.txt"]).unjudgeable
    assert "fay" not in {s.student for s in discover(root, "toy", skip=root / "fay")}  # e.g. --out inside it


@pytest.mark.parametrize("files, key", [({"x.py": "", "x/solution.py": ""}, "duplicate_student"),
                                        ({".hidden.py": ""}, "submissions_empty")])
def test_discover_rejects_what_it_cannot_grade(tmp_path, files, key):
    with pytest.raises(BadInput) as error:
        discover(_tree(tmp_path / "class", files), "toy")
    assert error.value.key == key


def test_the_content_hash_follows_the_bytes_not_the_folder(tmp_path):
    def key(root: Path, text: str) -> str:
        _tree(root, {"ann.py": text})
        return load(Submission("ann", root / "ann.py")).content_sha256

    assert key(tmp_path / "a", "x = 1\n") == key(tmp_path / "b", "x = 1\n") != key(tmp_path / "c", "x = 2\n")


@pytest.mark.parametrize("text", ["0/2", "3/2", "2", "a/b", "1/0", ""])
def test_bad_shards_are_refused(text):
    with pytest.raises(BadInput):
        Shard.parse(text)


@pytest.mark.parametrize("count", [1, 2, 3, 7])
def test_shards_partition_the_class(count):
    students = [f"student-{i}" for i in range(200)]
    owners = [[k for k in range(1, count + 1) if Shard.parse(f"{k}/{count}").holds(s)] for s in students]
    assert all(len(o) == 1 for o in owners)
    assert len({o[0] for o in owners}) == count


def _report(student: str, verdict: str, passed: list[bool]) -> dict:
    tests = [{"status": "passed" if ok else "failed", "extra_data": {"case": f"c{i}", "hidden": i > 0}}
             for i, ok in enumerate(passed)]
    return {"verdict": verdict, "passed": sum(passed), "total": len(passed), "score": float(sum(passed)),
            "max_score": float(len(passed)), "execution_time": 0.1, "tests": tests,
            "grading": {"student": student, "source": f"{student}.py"}}


def test_the_store_keeps_what_still_holds(tmp_path):
    store = Store(tmp_path / "out")
    loaded = load(Submission("ann", _tree(tmp_path / "class", {"ann.py": "x = 1\n"}) / "ann.py"))
    assert store.current(loaded, "k1") is None
    store.save(with_grading(_report("ann", "accepted", [True]), loaded, "k1", "run1"))
    assert store.current(loaded, "k1")["grading"]["run"] == "run1"
    assert store.current(loaded, "k2") is None  # the problem or the judge changed
    store.save(with_grading(_report("ann", "internal_error", []), loaded, "k1", "run2"))
    assert store.current(loaded, "k1") is None  # the judge's own failure is retried
    assert [p.name for p in (tmp_path / "out/students/ann").iterdir()] == [RESULTS]


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
    assert summary.verdicts == {"accepted": 1, "wrong_answer": 1, "compile_error": 1}
    assert [(c.case, c.passed, c.students, c.hidden) for c in summary.cases] == [("c0", 2, 3, False),
                                                                               ("c1", 1, 3, True)]
    assert json.loads(json.dumps(summary.as_json()))["cases"][1]["rate"] == 0.3333
