"""Each thing is named once, and the lists that must agree are asserted to agree: the verdict table, the table of
endings and their messages, the stylesheet and terminal colours written from them, the one encoding of
non-finite numbers, and the one shell every front end judges through."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from judge import messages
from judge.errors import BadInput, InternalError
from judge.judging.compare import compare
from judge.judging.limits import CaseLimits, case_limits
from judge.judging.session import CallResult, CaseResult, ending_fields
from judge.judging.verdict import ENDINGS, LIMIT_ENDINGS, VERDICTS, Severity, Tone, Verdict, from_ending, look
from judge.package.problem import load_problem
from judge.judging.plan import Asked
from judge.pipeline import Judge, Submitted, judge_guarded
from judge.report.build import build_report
from judge.report.render import render
from judge.report.style import TONES, ansi, verdict_css
from judge.worker.runner import Ending, Outcome
from tests.support.cli import REPO, SLUG

PROBLEM = load_problem(REPO / "problems" / SLUG)


def test_every_verdict_has_one_row_and_every_short_name_is_its_own():
    assert list(VERDICTS) == list(Verdict)
    shorts = [row.short for row in VERDICTS.values()]
    assert len(set(shorts)) == len(shorts)
    assert [v for v, row in VERDICTS.items() if row.severity is Severity.PASS] == [Verdict.ACCEPTED, Verdict.RAN]
    assert [v for v, row in VERDICTS.items() if row.severity is Severity.JUDGE_FAULT] == [Verdict.INTERNAL_ERROR]
    assert look("accepted") is VERDICTS[Verdict.ACCEPTED] and look("not run") is None


def test_every_tone_has_a_colour_and_the_stylesheet_names_every_verdict_once_per_rule_kind():
    assert set(TONES) == set(Tone) == {row.tone for row in VERDICTS.values()}
    css = str(verdict_css(".scope "))
    for verdict, row in VERDICTS.items():
        paint = TONES[row.tone]
        text_rule = next(line for line in css.splitlines() if f".scope .{verdict.value}" in line.split("{")[0].split(","))
        assert f"color:{paint.color}" in text_rule
        fill_rule = next(line for line in css.splitlines() if f".scope rect.{verdict.value}" in line.split("{")[0].split(","))
        assert f"fill:{paint.fill}" in fill_rule
        assert ansi(verdict.value) == paint.ansi
    assert ansi("hint") and ansi("") is None


def test_the_site_and_the_report_templates_write_no_verdict_colour_of_their_own():
    """The colours live in judge.report.style; a verdict class with a colour of its own elsewhere would drift."""
    written = [REPO / "judge/serve/static/site.css", *sorted((REPO / "judge/report/templates").glob("*.html.j2"))]
    for path in written:
        for selector, declarations in re.findall(r"([^{}]+)\{([^{}]*)\}", path.read_text(encoding="utf-8")):
            if re.search(r"(^|;)\s*(color|fill)\s*:", declarations):
                named = [v.value for v in Verdict if re.search(rf"\.{v.value}\b", selector)]
                assert named == [], f"{path.name}: {selector.strip()} colours {named}"


def test_every_ending_has_a_verdict_and_messages_that_format_from_the_measured_fields():
    assert set(ENDINGS) == set(Ending)
    fields = ending_fields(Outcome(cpu_s=1.5, wall_s=2.0, peak_rss_bytes=300 << 20, exit_status=-9, tasks=300,
                                   disk_bytes=70 << 20), CaseLimits(1.0, 256 << 20))
    for ending, rule in ENDINGS.items():
        assert from_ending(ending) is rule.verdict
        for key in (rule.message, rule.at_import, "ended_memory_cgroup"):
            assert messages.say(key, **fields)
    assert messages.say(ENDINGS[Ending.CPU].message, **fields) == "stopped after 1.50 s of CPU time (limit 1.00 s)"
    assert LIMIT_ENDINGS == {Ending.CPU, Ending.WALL, Ending.MEMORY, Ending.LATE}


def test_limits_are_derived_from_the_times_given():
    cases = PROBLEM.cases[:3]
    floor, multiplier = PROBLEM.limits.time_floor_s, PROBLEM.limits.time_multiplier
    times = {cases[0].id: 0.0, cases[1].id: 10 * floor / multiplier, cases[2].id: floor / multiplier / 2}
    limits = case_limits(PROBLEM, cases, times)
    assert [round(l.cpu_s, 9) for l in limits] == [floor, round(10 * floor, 9), floor]
    assert {l.memory_bytes for l in limits} == {PROBLEM.limits.memory_mb << 20}


def _report_with(value: object) -> dict:
    case = PROBLEM.samples[0]
    expected = [{"mean": math.nan, "std": math.inf, "dead_fraction": 0.5}]
    comparison = compare(value, expected, "layer")
    call = CallResult("compute_activation_stats", Verdict.WRONG_ANSWER, value=value, comparison=comparison)
    result = CaseResult(case, CaseLimits(1.0, 1 << 30), Verdict.WRONG_ANSWER, [call])
    return build_report(mode="run", problem=PROBLEM, submission={"path": "s.py", "sha256": ""}, results=[result],
                        expected=[[expected]], environment={"security_level": "L2"}, wall_s=0.1)


def test_non_finite_numbers_are_written_as_case_files_write_them_and_shown_as_numbers():
    """A submission that returns the string "nan" must not look like one that returned NaN."""
    report = _report_with([{"mean": 0.0, "std": -math.inf, "dead_fraction": "nan"}])
    call = report["tests"][0]["extra_data"]["calls"][0]
    assert call["expected"] == [{"mean": {"$float": "nan"}, "std": {"$float": "inf"}, "dead_fraction": 0.5}]
    assert call["got"][0]["dead_fraction"] == "nan" and call["got"][0]["std"] == {"$float": "-inf"}
    assert call["differences"][1] == {"field": "layer 1 · std", "got": {"$float": "-inf"}, "expected": {"$float": "inf"},
                                      "error": {"$float": "inf"}, "tolerance": {"$float": "inf"}, "problem": "value"}
    json.dumps(report, allow_nan=False)
    text = render(report, "text")
    assert "-inf" in text and " nan " in text and "$float" not in text


class _FailingPlan(Asked):
    """A judgement whose plan cannot be made: it fails with ``exc``."""

    def __init__(self, exc: BaseException):
        super().__init__(PROBLEM, "run", "cpu")
        object.__setattr__(self, "exc", exc)

    @property
    def plan(self):
        raise self.exc


def test_the_guarded_judgement_turns_every_failure_of_the_judge_into_one_labelled_report():
    submitted = Submitted(Path("s.py"), b"class Solution: pass\n", label="browser")
    for raised, reason in ((InternalError("worker_start_failed", reason="no fork"), "could not start its worker"),
                           (RuntimeError("a bug"), "RuntimeError: a bug")):
        report = judge_guarded(submitted, Judge(_FailingPlan(raised)))
        assert report["verdict"] == "internal_error" and reason in report["judge"]["judge_error"]
        assert report["submission"]["path"] == "browser" and report["problem"]["slug"] == SLUG
        assert report["mode"] == "run"
    with pytest.raises(BadInput):
        judge_guarded(submitted, Judge(_FailingPlan(BadInput("no_cuda"))))
