"""What a learner's report shows: columns that stay put, a list of the wrong length with its values, and the
security level in one word unless asked for in full (always in full in JSON). Rendered from the committed
golden report, so no worker runs."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from judge.judging.compare import compare
from judge.report.build import _difference
from judge.report.render import render

from tests.support.cli import run_judge

GOLDEN = json.loads((Path(__file__).parent / "golden" / "wrong_answer.json").read_text(encoding="utf-8"))
LEVEL = "L2 (limits, cgroup v2, no capabilities, seccomp, Landlock ABI 7, bubblewrap; uid 65534)"


def _report() -> dict:
    report = copy.deepcopy(GOLDEN)
    report["judge"]["security_level"] = LEVEL
    return report


def test_the_verdict_column_stays_put_however_long_a_case_name():
    report = _report()
    for test, name in zip(report["tests"], ("sample/01-a-name-of-exactly-38-chars-x", "s/2")):
        test["extra_data"]["case"] = name
    rows = [line for line in render(report, "text").splitlines() if line[:3].strip() in ("1", "2")]
    assert len(rows) == 2
    verdicts = [t["extra_data"]["verdict"] for t in report["tests"]]
    assert rows[0].index(verdicts[0]) == rows[1].index(verdicts[1])  # in the same column
    assert "sample/01-a-name-of-exactly-38-ch…" in rows[0]


def test_a_list_of_the_wrong_length_shows_its_values_not_only_its_lengths():
    got, expected = [0.25, 0.5], [0.25, 0.5, 0.75]
    report = _report()
    call = report["tests"][0]["extra_data"]["calls"][0]
    call.update(got=got, expected=expected,
                differences=[_difference(d, "en") for d in compare(got, expected, "layer").differences])
    for fmt in ("text", "markdown", "html"):
        shown = render(report, fmt)
        assert "[0.25, 0.5]" in shown and "[0.25, 0.5, 0.75]" in shown, fmt


def test_the_security_level_is_one_word_unless_verbose_and_in_full_in_json():
    report = _report()
    for fmt in ("text", "markdown", "html"):
        assert "security level L2 ·" in render(report, fmt) and "bubblewrap" not in render(report, fmt), fmt
        assert "bubblewrap" in render(report, fmt, verbose=True), fmt
    assert json.loads(render(report, "json"))["judge"]["security_level"] == LEVEL


def test_a_report_opens_with_the_verdict_and_keeps_the_judges_own_figures_for_the_end():
    report = _report()
    for fmt in ("text", "markdown", "html"):
        shown = render(report, fmt)
        verdict, meta = shown.index("wrong_answer"), shown.index("security level L2")
        assert verdict < meta and meta > shown.rindex("layer 1 · std"), fmt  # after every case's detail
    assert render(report, "text").startswith("verdict: wrong_answer ·")
    html = render(report, "html")
    assert html.index('<details class="judge-meta">') < html.index("security level L2")  # folded away


def test_a_string_in_a_difference_is_never_cut():
    report = _report()
    call = report["tests"][0]["extra_data"]["calls"][0]
    call["differences"] = [{"field": "result", "got": "healthy", "expected": "vanishing_gradients", "error": None,
                            "tolerance": None, "problem": "value"}]
    for fmt in ("text", "markdown", "html"):
        assert "vanishing_gradients" in render(report, fmt), fmt


def test_start_takes_no_color_as_the_other_learner_commands_do(tmp_path):
    result = run_judge(["start", "dead-relu-detector", "--no-color"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "dead-relu-detector.py").is_file()
