"""Ctrl-C in ``judge grade``: what is judged so far is in the overview, marked incomplete (and ``judge merge``
refuses it); the stored sources are absolute, so the class view finds each student's code from any folder."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.support.cli import SLUG, default_sigint, judge_env, run_judge
from tests.support.submissions import SLOW_ACCEPTED, WRONG, write_files


def test_ctrl_c_writes_a_partial_overview_marked_incomplete(toy_root, tmp_path):
    names = [f"s{i:02d}" for i in range(10)]
    write_files(tmp_path / "submissions", {f"{name}.py": (SLOW_ACCEPTED if i % 2 else WRONG) + f"\n# {name}\n"
                                      for i, name in enumerate(names)})
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "judge", "grade", SLUG, "submissions", "--out", "out", "--jobs", "1"]
    judge = subprocess.Popen(argv, env=judge_env(toy_root), cwd=tmp_path, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             preexec_fn=default_sigint)
    deadline = time.monotonic() + 120
    while len(list(out.glob("students/*/results.json"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    judge.send_signal(signal.SIGINT)
    _, stderr = judge.communicate(timeout=120)
    assert judge.returncode == 130, stderr
    saved = sorted(p.parent.name for p in out.glob("students/*/results.json"))
    assert 3 <= len(saved) < len(names), "the interrupt did not land halfway"
    assert "marked incomplete" in stderr and f"{len(saved)} of {len(names)}" in stderr

    summary = json.loads((out / "summary.json").read_text())
    assert summary["incomplete"] == len(names) - len(saved)
    assert [row["student"] for row in summary["students"]] == saved
    assert "incomplete" in (out / "index.html").read_text() and len((out / "summary.csv").read_text().splitlines()) \
        == len(saved) + 1
    for row in summary["students"]:  # the path inside the class folder, never the grading machine's
        grading = json.loads((out / "students" / row["student"] / "results.json").read_text())["grading"]
        assert row["source"] == grading["source"] == f"{row['student']}.py"
        folder = Path(grading["class_folder"])  # absolute, though judge grade was given a relative folder
        assert folder.is_absolute() and (folder / row["source"]).is_file()
    merged = run_judge(["merge", str(out), "--out", str(tmp_path / "merged")], toy_root)
    assert merged.returncode == 2 and "interrupted" in merged.stderr

    finished = subprocess.run(argv, env=judge_env(toy_root), cwd=tmp_path, capture_output=True, text=True,
                              timeout=300)
    assert finished.returncode == 0, finished.stderr
    assert json.loads((out / "summary.json").read_text())["incomplete"] == 0
    assert "incomplete" not in (out / "index.html").read_text()
