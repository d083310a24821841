"""Errors in the learner's terms: a compile error is said once per submission, and every traceback names the
learner's own file and lines, never the judge's frames or importlib's frozen ones."""

from __future__ import annotations

import json

import pytest

from judge.report.render import render
from judge.worker.main import learner_trace
from judge.worker.protocol import SOURCE_NAME

from tests.support.cli import REFERENCE_SOURCE, SLUG, run_judge

JUDGE_MARKS = ("judge/", "judge-worker-", "solution.py", 'File ""', SOURCE_NAME)
"""what no learner-facing report may show: the judge's files, its scratch copy, an unnamed frame, the
name the worker compiles the submission under"""


def _judged(toy_root, tmp_path, source: str, fmt: str = "text") -> tuple[int, str]:
    path = tmp_path / "my_attempt.py"
    path.write_text(source)
    result = run_judge(["run", SLUG, str(path), "--format", fmt], toy_root)
    return result.returncode, result.stdout


def _learner_facing(report_text: str) -> None:
    for mark in JUDGE_MARKS:
        assert mark not in report_text, mark


def test_an_empty_file_is_one_short_message_not_one_traceback_per_case(toy_root, tmp_path):
    code, text = _judged(toy_root, tmp_path, "")
    assert code == 1 and "verdict: compile_error" in text
    assert text.count("the file defines no class Solution") == 1
    assert len(text.splitlines()) < 15, text
    _learner_facing(text)


def test_a_syntax_error_names_the_learners_file_and_line(toy_root, tmp_path):
    code, text = _judged(toy_root, tmp_path, "import torch\n\nclass Solution:\n    def diagnose(self:\n")
    assert code == 1 and text.count("was never closed") == 1
    assert f'File "{tmp_path / "my_attempt.py"}", line 4' in text and "def diagnose(self:" in text
    _learner_facing(text)


def test_a_runtime_error_starts_at_the_learners_frame_in_every_format(toy_root, tmp_path):
    raising = '    raise ValueError("no stats")'
    source = REFERENCE_SOURCE + f"\n\ndef _boom():\n{raising}\n\n\nclass Solution(Solution):\n" \
                                "    def compute_activation_stats(self, model, x):\n        return _boom()\n"
    code, raw = _judged(toy_root, tmp_path, source, "json")
    report = json.loads(raw)
    error = next(c["error"] for t in report["tests"] for c in t["extra_data"]["calls"] if c.get("error"))
    lines = source.splitlines()
    name = str(tmp_path / "my_attempt.py")
    calling = lines.index("        return _boom()") + 1
    assert error["trace"].startswith(f'  File "{name}", line {calling}, in compute_activation_stats')
    assert f'File "{name}", line {lines.index(raising) + 1}, in _boom' in error["trace"]
    for fmt in ("text", "markdown", "html"):  # JUnit carries the message alone
        shown = render(report, fmt)
        assert "_boom()" in shown and "my_attempt.py" in shown, fmt
        _learner_facing(shown)


def test_frozen_frames_are_dropped_and_judge_frames_before_the_learners_too():
    code = compile("def f():\n    return 1 / 0\n", SOURCE_NAME, "exec")
    space: dict = {}
    exec(code, space)
    with pytest.raises(ZeroDivisionError) as raised:
        space["f"]()  # this test's own frame comes first: it is the judge's, and goes
    trace = learner_trace(raised.value)
    assert trace.startswith(f'  File "{SOURCE_NAME}", line 2, in f') and __file__ not in trace


def test_a_frame_with_angle_brackets_is_escaped_in_html_never_lost(toy_root, tmp_path):
    _, raw = _judged(toy_root, tmp_path, "", "json")
    report = json.loads(raw)
    report["judge"]["startup_error"]["trace"] = '  File "<frozen importlib._bootstrap>", line 241, in _call\n'
    html = render(report, "html")
    assert '&lt;frozen importlib._bootstrap&gt;' in html and 'File ""' not in html


def test_a_missing_method_is_named_with_the_methods_the_class_has(toy_root, tmp_path):
    source = REFERENCE_SOURCE.replace("def diagnose(", "def diagnosis(")
    code, text = _judged(toy_root, tmp_path, source)
    assert code == 1 and "verdict: compile_error" in text
    assert ("class Solution has no method diagnose; it has: compute_activation_stats, compute_gradient_stats, "
            "diagnosis") in text
    _learner_facing(text)


def test_an_import_that_ends_on_a_limit_names_the_limit_in_the_learners_words():
    from judge.judging.session import IMPORT_WALL_S, _startup_failure
    from judge.worker.runner import Ending, Outcome

    slow = _startup_failure(Outcome(ended=Ending.WALL), 512 << 20)
    assert slow["exc"] == "Importing your file"
    assert slow["msg"].startswith(f"importing your file took longer than {IMPORT_WALL_S:.0f} s")
    big = _startup_failure(Outcome(ended=Ending.MEMORY), 512 << 20)
    assert big["msg"] == "importing your file used more than 512 MiB, the memory limit"
