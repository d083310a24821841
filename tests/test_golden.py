"""Golden reports: one small submission per verdict (``tests/golden/submissions/``), its report in every format
(``tests/golden/<verdict>.<format>``), so that a change to a renderer or a template shows as a diff.

Two checks. The fast one renders each committed JSON report (``<verdict>.json``) in every format and compares
with the committed files: it needs no worker. The other judges each submission on the small problem of
``tests/test_adversarial.py`` and compares its normalised JSON report with the committed one. Normalised means:
times, memory, limits' numbers, paths, line numbers in tracebacks, versions,
the security level and the submission's hash are replaced by fixed words, and floats are cut to 6 digits; every
ending the verdict module's table (:data:`judge.judging.verdict.ENDINGS`) makes a time_limit_exceeded reads as
the CPU one. Traceback frames are kept: a frame of the judge's own in a learner's report shows as a diff.
``internal_error`` has no submission (no submission can cause it): its report is the judge's own failure report.

To regenerate after an intended change, run ``JUDGE_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest
tests/test_golden.py`` and review the diff (``git diff tests/golden``) before committing it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from judge import messages
from judge.judging.plan import Asked
from judge.judging.verdict import ENDINGS, HIDDEN_LIMIT_NOTES, LIMIT_ENDINGS, Verdict
from judge.package.problem import load_problem
from judge.pipeline import Judge, Submitted, failure_report, judge_guarded
from judge.report.render import render
from judge.worker.runner import Ending
from tests.support.cli import REFERENCE_SOURCE, SLUG

GOLDEN = Path(__file__).parent / "golden"
VERDICTS = ("accepted", "wrong_answer", "time_limit_exceeded", "memory_limit_exceeded", "runtime_error",
            "compile_error", "output_format_error", "internal_error")
SUFFIXES = {"text": "txt", "markdown": "md", "html": "html", "junit": "junit.xml"}
REGENERATE = bool(os.environ.get("JUDGE_REGENERATE_GOLDEN"))
INTERNAL_REASON = "the expected values of hidden/01-six could not be read (a damaged package)"
NUMBER = re.compile(r"\d+(\.\d+)?")
LIMIT_NOTES = frozenset(ending.value for ending in LIMIT_ENDINGS)
"""the ``exc`` of the judge's own notes about its limits (the verdict module's table): their numbers vary"""
TIME_NOTES = frozenset(ending.value for ending, rule in ENDINGS.items() if rule.verdict is Verdict.TIME_LIMIT_EXCEEDED)
"""endings that all mean time_limit_exceeded: which budget runs out first depends on the machine's load"""
CPU_NOTE = {"exc": Ending.CPU.value, "msg": NUMBER.sub("N", messages.say(ENDINGS[Ending.CPU].message, cpu_s=0,
                                                                         cpu_limit_s=0))}
"""what every time-limit ending reads as once normalised"""


def _error(error: dict[str, Any] | None, name: str) -> dict[str, Any] | None:
    """An error with its limits' numbers, and its file's folder and line numbers, replaced. Traceback frames are
    kept as they are: a frame of the judge's own in a learner's report would show as a diff."""
    if not error:
        return error
    error = dict(error)
    if error.get("exc") in TIME_NOTES:
        error.update(CPU_NOTE)
    elif error.get("exc") in LIMIT_NOTES:
        error["msg"] = NUMBER.sub("N", error["msg"])
    if error.get("trace"):
        error["trace"] = re.sub(r'"[^"]*\.py", line \d+', f'"{name}", line N', error["trace"])
    error["msg"] = re.sub(r"\([^()]*\.py, line \d+\)", f"({name}, line N)", error.get("msg", ""))
    return error


def _floats(value: Any) -> Any:
    if type(value) is float:
        return float(f"{value:.6g}")
    if type(value) is list:
        return [_floats(v) for v in value]
    if type(value) is dict:
        return {k: _floats(v) for k, v in value.items()}
    return value


def normalise(report: dict[str, Any], verdict: str) -> dict[str, Any]:
    """``report`` with everything that differs between machines, runs and versions replaced (see above)."""
    report = _floats(json.loads(json.dumps(report)))
    report["execution_time"] = 0.0
    report["submission"] = {"path": f"{verdict}.py", "sha256": "SHA256"}
    judge = report["judge"]
    judge.update({"version": "VERSION", "torch": "TORCH", "security_level": "LEVEL"})
    if judge.get("startup_error"):
        judge["startup_error"] = _error(judge["startup_error"], f"{verdict}.py")
    judge["time_budget_s"] = float(len(report["tests"]))  # every limit below is 1.0
    for test in report["tests"]:
        if "execution_time" in test:  # absent, as the figures below are None, where nothing was measured
            test["execution_time"] = 0.0
        extra = test["extra_data"]
        extra.update({key: 0.0 for key in ("cpu_time_s", "peak_memory_mb") if extra[key] is not None})
        extra["time_limit_s"] = 1.0
        for call in extra["calls"]:
            if "cpu_time_s" in call:  # a hidden case's calls have no time of their own
                call["cpu_time_s"] = 0.0 if call["cpu_time_s"] is not None else None
            if "error" in call:
                call["error"] = _error(call["error"], f"{verdict}.py")
            if "limit" in call:  # a hidden call's note names its limit alone, whichever budget ran out
                call["limit"] = NUMBER.sub("N", call["limit"])
    return report


def _golden(name: str) -> Path:
    return GOLDEN / name


def _compare(path: Path, text: str) -> None:
    if REGENERATE:
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path.name} is missing: JUDGE_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest {__file__}"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} changed; if on purpose, regenerate (see above)"


def _source(verdict: str) -> str:
    text = (GOLDEN / "submissions" / f"{verdict}.py").read_text(encoding="utf-8")
    return REFERENCE_SOURCE + "\n\n" + text if text.startswith("# base: reference") else text


@pytest.mark.parametrize("verdict", VERDICTS)
def test_each_verdict_gets_the_committed_report(verdict, adversarial_root, tmp_path):
    problem = load_problem(adversarial_root / "problems" / SLUG)
    path = tmp_path / f"{verdict}.py"
    if verdict == "internal_error":
        report = failure_report(problem, Submitted(path, b""), "submit", "cpu", INTERNAL_REASON)
    else:
        path.write_text(_source(verdict), encoding="utf-8")
        report = judge_guarded(Submitted.read(path), Judge(Asked(problem, "submit", "cpu")))
    assert report["verdict"] == verdict
    _compare(_golden(f"{verdict}.json"), json.dumps(normalise(report, verdict), indent=2, ensure_ascii=False) + "\n")


@pytest.mark.parametrize("verdict", VERDICTS)
def test_each_committed_report_renders_as_committed(verdict):
    report = json.loads(_golden(f"{verdict}.json").read_text(encoding="utf-8"))
    for fmt, suffix in SUFFIXES.items():
        _compare(_golden(f"{verdict}.{suffix}"), render(report, fmt))


def test_every_verdict_has_a_golden_submission():
    assert sorted(p.stem for p in (GOLDEN / "submissions").glob("*.py")) == sorted(set(VERDICTS) - {"internal_error"})



FIELDS = {"cpu_s": 1.23, "cpu_limit_s": 1.0, "wall_s": 4.56, "wall_limit_s": 3.0}
"""the fields a time-limit ending's message may name (judge.judging.session.ending_fields), with numbers"""


@pytest.mark.parametrize("ending", sorted(TIME_NOTES))
def test_every_time_limit_ending_normalises_to_the_committed_note(ending):
    """Whichever budget a loaded machine exhausts first (CPU, wall, a late answer), the golden report reads the same:
    the filter is the verdict module's table, so a new time-limit ending is covered as soon as it is in it."""
    note = {"exc": ending, "msg": messages.say(ENDINGS[Ending(ending)].message, **FIELDS)}
    committed = json.loads(_golden("time_limit_exceeded.json").read_text(encoding="utf-8"))
    calls = [call for test in committed["tests"] for call in test["extra_data"]["calls"]]
    assert [call["error"] for call in calls if call.get("error")] == [_error(note, "x.py")]
    hidden_note = messages.say(HIDDEN_LIMIT_NOTES[Verdict.TIME_LIMIT_EXCEEDED], cpu_limit_s=0)
    assert [call["limit"] for call in calls if "limit" in call] == [NUMBER.sub("N", hidden_note)]
