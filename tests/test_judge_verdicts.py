"""Broken and hostile submissions get the right verdict through the real judge, and judging goes on."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import REFERENCE_SOURCE, SLUG, judge_json, run_judge
from tests.support.submissions import (ALWAYS_EQUAL, EXITS_ON_BATCH_OF_SIX, FAKE_OUTPUT, GROWS, HUGE_TENSOR, LOOPS,
                                       NUMPY_AND_TENSOR_SCALARS, RAISES, RETURNS_BOOL, SLEEPS, patched)


@pytest.mark.parametrize("source, verdict", [
    (REFERENCE_SOURCE, "accepted"),
    (NUMPY_AND_TENSOR_SCALARS, "accepted"),
    (ALWAYS_EQUAL, "output_format_error"),
    (RETURNS_BOOL, "output_format_error"),
    (FAKE_OUTPUT, "wrong_answer"),
    (RAISES, "runtime_error"),
    (HUGE_TENSOR, "memory_limit_exceeded"),
    (GROWS, "memory_limit_exceeded"),
    (LOOPS, "time_limit_exceeded"),
    (SLEEPS, "time_limit_exceeded"),
], ids=["reference", "numpy-and-0d-tensor-scalars", "always-equal", "bool", "fake-output", "raises",
        "huge-tensor", "grows", "infinite-loop", "sleeps"])
def test_declared_verdict(toy_root, write_submission, source, verdict):
    code, report = judge_json(["submit", SLUG, str(write_submission(source))], toy_root)
    assert report["verdict"] == verdict
    assert code == (0 if verdict == "accepted" else 1)


def test_a_crash_in_one_case_does_not_stop_the_others(toy_root, write_submission):
    _, report = judge_json(["submit", SLUG, str(write_submission(EXITS_ON_BATCH_OF_SIX))], toy_root)
    verdicts = [t["extra_data"]["verdict"] for t in report["tests"]]
    assert verdicts == ["accepted", "runtime_error", "accepted"]
    assert report["verdict"] == "runtime_error"


def test_a_looping_method_stops_costing_time_and_only_its_own_cases(mixed_root, write_submission):
    """Two calls of compute_activation_stats end on the time limit; its third case is not run, with nothing
    measured and the reason said, and the case that calls only compute_gradient_stats is still judged (it
    once was not run, so one slow method scored 0)."""
    _, report = judge_json(["submit", SLUG, str(write_submission(LOOPS))], mixed_root)
    tests = [t["extra_data"] for t in report["tests"]]
    assert [t["verdict"] for t in tests] == ["time_limit_exceeded", "time_limit_exceeded", None, "accepted"]
    assert tests[2]["not_run"] == {"reason": "method", "method": "compute_activation_stats"}
    assert (tests[2]["cpu_time_s"], tests[2]["peak_memory_mb"], tests[2]["calls"]) == (None, None, [])
    calls = {f"{p.parent.name}/{p.stem}": len(json.loads(p.read_text())["calls"])
             for p in (mixed_root / "problems" / SLUG / "cases").glob("*/*.json")}
    assert report["passed"] == 1
    assert report["judge"]["time_budget_s"] == pytest.approx(sum(t["time_limit_s"] * calls[t["case"]] for t in tests))
    text = run_judge(["submit", SLUG, str(write_submission(LOOPS)), "--no-color"], mixed_root).stdout
    row = next(line for line in text.splitlines() if "hidden/02-five" in line)
    assert row.split()[2:5] == ["not", "run", "-"] and row.rstrip().endswith(" -"), row  # nothing measured shown
    assert "#3: not run: compute_activation_stats ended on a time or memory limit in 2 cases" in text


@pytest.mark.parametrize("source, message", [
    ("def broken(:\n", "SyntaxError"),
    ("import no_such_module_anywhere\n", "ModuleNotFoundError"),
    ("class Nope:\n    pass\n", "no class Solution"),
    ("class Solution:\n    def diagnose(self, a, b):\n        return 'healthy'\n", "no method"),
    ("import sys\nsys.exit(0)\n", "SystemExit"),
])
def test_compile_errors(toy_root, write_submission, source, message):
    code, report = judge_json(["run", SLUG, str(write_submission(source))], toy_root)
    assert (code, report["verdict"]) == (1, "compile_error")
    error = report["judge"]["startup_error"]
    assert message in error["exc"] + error["msg"]


def test_hidden_cases_reveal_no_details(toy_root, write_submission):
    leaky = patched("""
print("INPUT-SHAPE", args[1].shape)
raise ValueError(f"secret {args[1].sum().item()}")
""")
    _, report = judge_json(["submit", SLUG, str(write_submission(leaky))], toy_root)
    sample, *hidden = report["tests"]
    assert "INPUT-SHAPE" in sample["extra_data"]["calls"][0]["stdout"]
    for test in hidden:
        text = str(test)
        assert "secret" not in text and "INPUT-SHAPE" not in text and "inputs" not in test["extra_data"]
        assert test["extra_data"]["verdict"] == "runtime_error"


def test_visible_report_names_the_field(toy_root, write_submission):
    wrong = REFERENCE_SOURCE.replace("'std': _r(x.std())", "'std': _r(x.std(correction=0))")
    assert wrong != REFERENCE_SOURCE
    _, report = judge_json(["run", SLUG, str(write_submission(wrong))], toy_root)
    call = report["tests"][0]["extra_data"]["calls"][0]
    assert call["verdict"] == "wrong_answer"
    assert call["failed_field"] == "layer 1 · std"
    diff = call["differences"][0]
    assert diff["error"] > diff["tolerance"]


def test_a_report_is_written_when_the_judge_fails(toy_root, tmp_path, write_submission):
    """No reference solution to calibrate with: the judge's fault, exit 3, verdict internal_error, still a report."""
    import shutil

    broken = tmp_path / "no-reference"
    shutil.copytree(toy_root / "problems", broken / "problems")
    (broken / "solutions").mkdir()
    out = tmp_path / "report.json"
    result = run_judge(["submit", SLUG, str(write_submission(REFERENCE_SOURCE)), "--format", "json",
                        "--output", str(out)], broken)
    assert result.returncode == 3
    report = json.loads(out.read_text())
    assert report["verdict"] == "internal_error" and report["judge"]["judge_error"]


def test_construction_drift_is_an_internal_error_not_a_verdict(toy_root, tmp_path, write_submission):
    import shutil

    drifted = tmp_path / "drifted"
    shutil.copytree(toy_root, drifted)
    case = drifted / "problems" / SLUG / "cases" / "hidden" / "02-five.json"
    data = json.loads(case.read_text())
    data["build_sha256"] = "0" * 64
    case.write_text(json.dumps(data))
    code, report = judge_json(["submit", SLUG, str(write_submission(REFERENCE_SOURCE))], drifted)
    assert (code, report["verdict"]) == (3, "internal_error")
    assert "hidden/02-five" in json.dumps(report["judge"])
