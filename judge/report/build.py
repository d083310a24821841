"""Build the JSON report: the source of truth every other format is rendered from.

Schema (``schema_version`` 1). Top-level fields follow Gradescope's ``results.json`` where they fit:

``score``, ``max_score``    cases passed, cases in total
``execution_time``          wall seconds for the whole judgement
``output``                  one-line summary
``visibility``              always ``visible``
``tests[]``                 one per case, in judging order (samples first), each with
    ``name``, ``number``, ``status`` (``passed``/``failed``), ``score``, ``max_score``, ``execution_time`` (CPU s;
    absent when nothing was measured), ``output`` (text), ``visibility`` and ``extra_data``: ``case``,
    ``hidden``, ``verdict`` (null: not run), ``not_run`` (only then: ``reason`` ``method`` or ``budget``, and the
    ``method`` stopped, :mod:`judge.judging.allowance`), ``cpu_time_s`` and ``peak_memory_mb`` (null when no
    worker ran the case: not run, or a submission no worker could load), ``time_limit_s``, ``memory_limit_mb``,
    ``coarse`` and ``calls[]`` (``method``, ``verdict``, ``cpu_time_s``). Visible cases add ``inputs`` and, per
    call, ``failed_field``, ``got``, ``expected``, ``differences[]`` (``field``, ``got``, ``expected``, ``error``,
    ``tolerance``), ``error`` (``exc``, ``msg``, ``trace``), ``stdout`` and ``hints[]`` (``pitfall``, ``text``: a
    known mistake the output shows, :mod:`judge.judging.hints`). Hidden cases carry only what the judge chose: never
    inputs, values, output, messages, hints, nor the field that failed (the submission picks it by what it gets
    wrong), and their output line names the verdict and the method alone. Their figures are
    coarse (``coarse`` true, :func:`coarsened`): ``cpu_time_s`` and ``execution_time`` are the upper bound of the
    quarter of the case's CPU-time limit they fall in, ``peak_memory_mb`` that of the quarter of its memory limit,
    so each carries at most 2 bits of what the submission saw; their calls keep ``method``, ``verdict`` and, for a
    limit hit, ``limit``: the limit alone in the judge's words, never a measured figure. Once a hidden case has
    run, the whole judgement's ``execution_time`` is rounded up to whole seconds. An exact report (``exact``: an
    author's ``judge verify``, an instructor's copy in ``judge grade``) keeps figures as measured (and each call's
    time and the judge's exact note on a limit); :func:`coarsened` turns it into the one a learner sees.
    ``tests/test_report_channel.py`` counts the distinct entries one hidden case can be made to show.
Also ``schema_version``, ``verdict`` (overall), ``mode`` (``run``/``submit``), ``passed``, ``total``,
``problem`` (``slug``, ``title``), ``submission`` (``path``, ``sha256``) and ``judge`` (``version``, ``torch``,
``device``, ``expected_device``, ``security_level``, ``comparison_rule``, ``time_budget_s``: what the whole
submission may spend, :mod:`judge.judging.allowance`, ``judge_error``), and ``lang`` when the learner reads
the judge in a language other than English (``judge run --lang zh``, the site's 中文): the language of its
sentences (``output``, notes, limits, case titles) and of every rendering of it (:mod:`judge.report.render`).

Strict JSON has no NaN or infinity: a value that holds one writes it as a case file does,
``{"$float": "nan" | "inf" | "-inf"}`` (:func:`judge.package.cases.tag_nonfinite`), never as a string a
submission could have returned itself.
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any

from judge import messages
from judge.judging.compare import Difference, field_in, said_value, type_in
from judge.judging.allowance import STRIKES, Why, total_budget_s
from judge.judging.hints import recognise
from judge.judging.session import CallResult, CaseResult, JudgesNote
from judge.judging.verdict import HIDDEN_LIMIT_NOTES, LIMIT_ENDINGS, Verdict, overall
from judge.machine import judge_version
from judge.package.cases import tag_nonfinite
from judge.package.describe import describe_inputs
from judge.package.problem import Problem
from judge.package.tolerance import DEFAULT, Tolerance
from judge.worker.protocol import SOURCE_NAME

SCHEMA_VERSION = 1
MB = 2**20
HIDDEN_STEPS = 4
"""a hidden case's CPU time and peak memory are reported in quarters of their limits: a submission that encodes
what it saw in how long it runs or how much it allocates gets back 2 bits a figure, where exact figures carried
about 8"""


def coarse(value: float | None, limit: float, steps: int = HIDDEN_STEPS) -> float | None:
    """The upper bound of the step (a ``1/steps`` share of ``limit``) that ``value`` falls in; the limit itself for
    a value beyond it (the verdict says it was exceeded); None (nothing measured) stays None."""
    if value is None or limit <= 0:
        return value
    step = limit / steps
    return min(max(math.ceil(value / step - 1e-9), 1), steps) * step


def _hidden_call(call: dict[str, Any], extra: dict[str, Any], lang: str) -> dict[str, Any]:
    """What a learner sees of one call of a hidden case: its method and verdict, and for a limit the limit alone
    (:data:`~judge.judging.verdict.HIDDEN_LIMIT_NOTES`); no time of its own, which would be 2 more bits a call."""
    entry = {"method": call["method"], "verdict": call["verdict"]}
    note = HIDDEN_LIMIT_NOTES.get(call["verdict"])
    if note:
        entry["limit"] = messages.say_in(lang, note, cpu_limit_s=extra["time_limit_s"],
                                         memory_limit_mib=extra["memory_limit_mb"])
    return entry


def _coarse_test(test: dict[str, Any], lang: str) -> dict[str, Any]:
    """A hidden case's test entry as a learner sees it (figures coarse, calls reduced to what the judge chose); a
    visible case's as it is."""
    extra = test["extra_data"]
    if not extra["hidden"] or extra["coarse"]:
        return test
    cpu_limit, memory_limit = extra["time_limit_s"], extra["memory_limit_mb"]
    cpu = coarse(extra["cpu_time_s"], cpu_limit)
    extra = {**extra, "cpu_time_s": cpu, "peak_memory_mb": coarse(extra["peak_memory_mb"], memory_limit),
             "coarse": cpu is not None, "calls": [_hidden_call(c, extra, lang) for c in extra["calls"]]}
    return {**test, **({"execution_time": cpu} if "execution_time" in test else {}), "extra_data": extra}


def coarsened(report: dict[str, Any]) -> dict[str, Any]:
    """The report a learner sees, from an exact one (the same report if it is coarse already): every hidden case's
    figures coarse, and the whole judgement's time in whole seconds once a hidden case has run."""
    tests = [_coarse_test(t, report_language(report)) for t in report["tests"]]
    wall_s = report["execution_time"]
    if any(t["extra_data"]["hidden"] and t["extra_data"]["verdict"] is not None for t in report["tests"]):
        wall_s = float(math.ceil(wall_s))
    return {**report, "execution_time": wall_s, "tests": tests}


def _difference(d: Difference, lang: str) -> dict[str, Any]:
    """A difference as the report gives it, its field (and a format error's types) said in ``lang``."""
    shown = (type_in(lang, d.got), type_in(lang, d.expected)) if d.problem == "type" else (d.got, d.expected)
    return tag_nonfinite({"field": field_in(lang, d), "got": shown[0], "expected": shown[1], "error": d.error,
                         "tolerance": d.tolerance, "problem": d.problem})


def _failed_field(call: CallResult, lang: str) -> str | None:
    comparison = call.comparison
    if comparison is None:
        return None
    if comparison.format_error:
        return field_in(lang, comparison.format_error)
    return field_in(lang, comparison.differences[0]) if comparison.differences else None


def _named(error: dict[str, Any] | None, source: str, lang: str) -> dict[str, Any] | None:
    """A worker's error with the name its submission was compiled under replaced by the learner's own (the path
    they gave, ``notebook``, ``browser``), so messages and tracebacks point into their file; a note in the judge's
    own words (:class:`~judge.judging.session.JudgesNote`, never a worker's reply) said in ``lang``."""
    if not error:
        return error
    if isinstance(error, JudgesNote):
        step = re.sub(r"[^a-z]+", "_", error["exc"].lower())  # the judge's step, named in ``lang`` too
        shown = messages.say_in(lang, f"step_{step}") if f"step_{step}" in messages.CATALOGUE else error["exc"]
        error = {**error, "exc": shown, "msg": messages.say_in(lang, error.key, **error.fields)}
    return {k: v.replace(SOURCE_NAME, source) if k in ("msg", "trace") and type(v) is str else v
            for k, v in error.items()}


def _call(call: CallResult, expected: Any, visible: bool, hints: list[dict[str, str]], source: str,
          lang: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"method": call.method, "verdict": call.verdict.value,
                             "cpu_time_s": round(call.cpu_s, 4) if call.measured else None}
    if not visible:  # the field a hidden case failed at is the submission's choice: never named
        if call.ending in LIMIT_ENDINGS:
            entry["limit"] = _named(call.error, source, lang)["msg"]  # the judge's words; exact: an exact report's
        return entry
    entry["failed_field"] = _failed_field(call, lang)
    comparison = call.comparison
    entry.update({
        "got": tag_nonfinite(said_value(call.value, lang)),
        "expected": tag_nonfinite(expected),
        "differences": [_difference(d, lang) for d in (comparison.differences if comparison else [])],
        "format_error": _difference(comparison.format_error, lang) if comparison and comparison.format_error else None,
        "error": _named(call.error, source, lang),
        "stdout": call.output,
        "hints": hints,
    })
    return entry


def _hints(result: CaseResult, expected: list[Any] | None, catalogue: dict[str, str],
           tolerance: Tolerance) -> dict[int, list[dict[str, str]]]:
    """By call index, the known mistakes a visible case shows; hidden cases are never looked at."""
    if result.case.hidden or not expected:
        return {}
    shown = recognise(result.case, result.calls, expected, tolerance)
    return {i: [{"pitfall": p, "text": catalogue[p]} for p in pitfalls if p in catalogue]
            for i, pitfalls in shown.items()}


def _ran(result: CaseResult) -> CaseResult:
    """A case of a judgement that had nothing to compare (a learner's own case without ``expected``): what was
    accepted only ran (:attr:`Verdict.RAN`), so no report of it says "accepted"."""
    def shown(verdict: Any) -> Any:
        return Verdict.RAN if verdict is Verdict.ACCEPTED else verdict
    return dataclasses.replace(result, verdict=shown(result.verdict),
                               calls=[dataclasses.replace(c, verdict=shown(c.verdict)) for c in result.calls])


def _test(number: int, result: CaseResult, expected: list[Any] | None, catalogue: dict[str, str],
          tolerance: Tolerance, source: str, budget_s: float, lang: str) -> dict[str, Any]:
    """A case's entry with exact figures (:func:`coarsened` makes a hidden case's coarse)."""
    visible = not result.case.hidden
    passed = result.verdict in (Verdict.ACCEPTED, Verdict.RAN)
    hints = _hints(result, expected, catalogue, tolerance)
    limits, measured = result.limits, result.measured
    cpu_s = round(result.cpu_s, 4) if measured else None
    extra: dict[str, Any] = {
        "case": result.case.id,
        "hidden": result.case.hidden,
        "verdict": result.verdict.value if result.verdict else None,
        "cpu_time_s": cpu_s,
        "peak_memory_mb": round(result.peak_rss_bytes / MB, 1) if measured else None,
        "time_limit_s": round(limits.cpu_s, 3),
        "memory_limit_mb": round(limits.memory_bytes / MB),
        "coarse": False,
        "calls": [_call(c, expected[i] if expected else None, visible, hints.get(i, []), source, lang)
                  for i, c in enumerate(result.calls)],
    }
    if result.not_run is not None:
        extra["not_run"] = {"reason": result.not_run.why.value, "method": result.not_run.method}
    title = result.case.titles.get(lang, result.case.title)
    if visible:
        extra["title"] = title
        extra["inputs"] = describe_inputs(result.case, lang)
    if result.case.ignored:
        extra["note"] = messages.say_in(lang, "case_ignored_fields", fields=", ".join(result.case.ignored))
    test: dict[str, Any] = {
        "name": f"{result.case.id}" + (f": {title}" if visible else ""),
        "number": str(number),
        "status": "passed" if passed else "failed",
        "score": 1.0 if passed else 0.0,
        "max_score": 1.0,
    }
    if measured:
        test["execution_time"] = cpu_s
    return {**test, "output": _summary_line(result, budget_s, lang), "visibility": "visible", "extra_data": extra}


def _summary_line(result: CaseResult, budget_s: float, lang: str) -> str:
    if result.not_run is not None and result.not_run.why is Why.METHOD:
        return messages.say_in(lang, "case_not_run_method", method=result.not_run.method, strikes=STRIKES)
    if result.not_run is not None:
        return messages.say_in(lang, "case_not_run_budget", budget=budget_s)
    if result.verdict is None:
        return messages.say_in(lang, "case_not_run")
    if result.verdict is Verdict.RAN:
        return messages.say_in(lang, "case_ran")
    failing = next((c for c in result.calls if c.verdict is not Verdict.ACCEPTED), None)
    if failing is None:
        return messages.say_in(lang, "case_accepted")
    verdict = verdict_name(lang, failing.verdict.value)
    where = None if result.case.hidden else _failed_field(failing, lang)
    if where:
        return messages.say_in(lang, "case_failed_at", verdict=verdict, method=failing.method, field=where)
    return messages.say_in(lang, "case_failed", verdict=verdict, method=failing.method)


def report_language(report: dict[str, Any]) -> str:
    """The language a report is written in: its ``lang`` when that is one the judge speaks, else English (a stored
    report is read as untrusted, so whatever it holds there never names a file to read)."""
    lang = report.get("lang")
    return lang if isinstance(lang, str) and lang in messages.LANGUAGES else "en"


def verdict_name(lang: str, verdict: str | None) -> str:
    """A verdict as a learner reads it in ``lang`` (None: the case was not run); in English, its identifier. A name
    that is no verdict (a stored result read back is untrusted) is shown as it is."""
    key = f"verdict_{verdict or 'not_run'}"
    return messages.say_in(lang, key) if key in messages.CATALOGUE else str(verdict)


def _authored(problem: Any, lang: str) -> tuple[str, dict[str, str]]:
    """The problem's title and hint catalogue in ``lang``, English where the package has no translation (a
    stand-in problem, as some tests build, gives its own ``title`` and ``hints``)."""
    if isinstance(problem, Problem):
        return problem.title_in(lang), problem.hints_in(lang)
    return problem.title, getattr(problem, "hints", {})


def build_report(*, mode: str, problem: Any, submission: dict[str, str], results: list[CaseResult],
                 expected: list[list[Any]], environment: dict[str, Any], wall_s: float,
                 judge_error: str | None = None, exact: bool = False, lang: str = "en") -> dict[str, Any]:
    """The report; ``exact``: hidden cases' figures too are exact (for an author's or an instructor's eyes,
    never a learner's: :func:`coarsened` is what a learner sees); ``lang``: the language of its sentences and
    of every rendering of it (:data:`judge.messages.LANGUAGES`)."""
    if expected is None:  # nothing to compare: a learner's own case without expected values
        results = [_ran(r) for r in results]
    verdicts = [r.verdict for r in results]
    final = Verdict.INTERNAL_ERROR if judge_error else overall(verdicts)
    passed = sum(v is Verdict.ACCEPTED for v in verdicts)
    title, catalogue = _authored(problem, lang)
    tolerance = getattr(problem, "tolerance", DEFAULT)
    source = submission["path"]
    budget_s = round(total_budget_s([r.case for r in results], [r.limits for r in results]), 3)
    tests = [_test(i + 1, r, expected[i] if expected else None, catalogue, tolerance, source, budget_s, lang)
             for i, r in enumerate(results)]
    if environment.get("startup_error"):
        environment = {**environment, "startup_error": _named(environment["startup_error"], source, lang)}
    scope = messages.say_in(lang, "scope_run" if mode == "run" else "scope_submit")
    report = {
        "schema_version": SCHEMA_VERSION,
        "verdict": final.value,
        "mode": mode,
        "score": float(passed),
        "max_score": float(len(results)),
        "passed": passed,
        "total": len(results),
        "execution_time": round(wall_s, 3),
        "output": messages.say_in(lang, "report_ran", total=len(results)) if final is Verdict.RAN else messages.say_in(
            lang, "report_summary", verdict=verdict_name(lang, final.value), passed=passed, total=len(results),
            scope=scope),
        "visibility": "visible",
        "problem": {"slug": problem.slug, "title": title},
        "submission": submission,
        "judge": {"version": judge_version(), "comparison_rule": tolerance.formula, "time_budget_s": budget_s,
                  "judge_error": judge_error, **environment},
        "tests": tests,
        **({"lang": lang} if lang != "en" else {}),
    }
    return report if exact else coarsened(report)
