"""What one hidden case's report can carry back: nothing of the submission's making, and a counted
number of distinct entries.

Every choice a submission has on one hidden case is played here through the real report builder: which call
fails first, with which verdict and ending, how much CPU time and memory it uses (a grid that reaches every
quarter of both limits), and what it returns, raises and prints (canary strings). The learner's entry of that
case is then read back in every format and every platform export. No canary may appear anywhere, and the number of
distinct entries is the channel's size: ``docs/security.md`` states its bits from :func:`channel`.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from judge.judging.compare import Comparison, Difference
from judge.judging.limits import CaseLimits
from judge.judging.session import CallResult, CaseResult
from judge.judging.verdict import ENDINGS, Verdict
from judge.package.cases import Case
from judge.platforms import gradescope, prairielearn
from judge.platforms.config import Export, Exported
from judge.report.build import build_report, coarsened
from judge.report.render import FORMATS, render
from judge.package.problem import available, find_problem
from judge.worker.runner import Ending
from tests.support.cli import REPO

CPU_S, MEMORY = 1.0, 256 << 20
SHARES = (0.1, 0.35, 0.6, 0.85, 1.1)
"""fractions of a limit: one in each quarter, and one beyond it"""
CANARY = "canary"
"""in every field name, message, printed line and value the submission makes: none may reach a hidden entry"""
ENDINGS_OF = {v: [e for e, rule in ENDINGS.items() if rule.verdict is v] for v in Verdict}
NOT_FAILING = (Verdict.ACCEPTED, Verdict.RAN)
"""``ran`` is a learner's own case without expected values, never a hidden case's"""
UNMEASURED = (Verdict.COMPILE_ERROR, Verdict.INTERNAL_ERROR)
"""a replacement worker that could not load the submission: that call ran nowhere"""


ENVIRONMENT = {"torch": "2", "device": "cpu", "expected_device": "cpu", "security_level": "L2"}


class _Problem:
    slug, title = "p", "P"


def _case(calls: int) -> Case:
    return Case("01", "hidden", Path("x.json"), "t", {}, [{"method": f"m{i}", "args": []} for i in range(calls)],
                None, {}, {}, [])


def _failing(method: str, verdict: Verdict, ending: Ending | None, cpu_s: float, peak: int, tag: str) -> CallResult:
    """One failing call as the session would record it, carrying the submission's words wherever it has any."""
    if verdict in UNMEASURED:
        error = {"exc": f"{CANARY}{tag}", "msg": f"{CANARY} msg {tag}"}
        return CallResult(method, verdict, error=error, measured=False)
    field = f"{CANARY} field {tag}"
    comparison = None
    if verdict is Verdict.WRONG_ANSWER:
        comparison = Comparison([Difference(field, 1.0, 2.0, "value", 1e-4)])
    elif verdict is Verdict.OUTPUT_FORMAT_ERROR:
        comparison = Comparison(format_error=Difference(field, "a string", "a number", "type"))
    error = {"exc": f"{CANARY}Error", "msg": f"{CANARY} msg {tag}", "trace": f"{CANARY} trace"}
    if ending is not None:
        error = {"exc": ending.value, "msg": f"stopped at {peak / 2**20:.0f} MiB after {cpu_s:.3f} s"}
    return CallResult(method, verdict, cpu_s, cpu_s, peak, value=f"{CANARY} value {tag}", comparison=comparison,
                      error=error, output=f"{CANARY} stdout {tag}\n", ending=ending)


def _plays(calls: int):
    """Every (case result, tag) a submission can bring about on one hidden case of ``calls`` calls."""
    limits = CaseLimits(CPU_S, MEMORY)
    failing_choices = [(None, None, None)] + [(j, v, e) for j in range(calls) for v in Verdict if v not in NOT_FAILING
                                              for e in (ENDINGS_OF[v] or [None]) + ([None] if ENDINGS_OF[v] else [])]
    for (j, verdict, ending), cpu, peak, tag in itertools.product(failing_choices, SHARES, SHARES, "ab"):
        ran = calls if j is None else j + 1
        share = cpu * CPU_S / max(1, ran - (verdict in UNMEASURED))  # the calls that ran share the time
        done = [CallResult(f"m{i}", Verdict.ACCEPTED, share, share, int(peak * MEMORY), value=f"{CANARY} {tag}",
                           output=f"{CANARY} out {tag}") for i in range(ran if j is None else j)]
        if j is not None:
            done.append(_failing(f"m{j}", verdict, ending, share, int(peak * MEMORY), tag))
        final = next((c.verdict for c in done if c.verdict is not Verdict.ACCEPTED), Verdict.ACCEPTED)
        yield CaseResult(_case(calls), limits, final, done), tag


def _report(result: CaseResult, exact: bool = False) -> dict:
    return build_report(mode="submit", problem=_Problem(), submission={"path": "s.py", "sha256": ""},
                        results=[result], expected=[], environment=ENVIRONMENT, wall_s=1.0, exact=exact)


def channel(calls: int) -> set[str]:
    """The distinct learner's entries one hidden case of ``calls`` calls can show, as JSON text."""
    return {json.dumps(_report(r)["tests"][0], sort_keys=True) for r, _ in _plays(calls)}


def expected_size(calls: int) -> int:
    """What the channel should hold: the verdict pattern (all accepted, or which call fails first with which of
    the 7 other verdicts), times 16 for the coarse CPU time and memory (4 quarters each) where the case ran in a
    worker. A first call that ran nowhere (compile or internal error) shows no figures, a later one shows those
    of the calls before it."""
    measured_patterns = 1 + 5 * calls + 2 * (calls - 1)
    return 16 * measured_patterns + 2


@pytest.mark.parametrize("calls", [1, 2, 3])
def test_one_hidden_case_shows_only_a_counted_number_of_entries(calls):
    found = channel(calls)
    assert len(found) == expected_size(calls)
    print(f"{calls} call(s): {len(found)} distinct entries, {math.log2(len(found)):.2f} bits")


def _bits(calls: int) -> str:
    return f"{math.log2(expected_size(calls)):.1f}"


def test_the_docs_state_the_channel_as_counted_for_the_largest_hidden_case_here():
    """docs/reports.md, docs/security.md and the README give the channel's entries and bits for one, two and three
    calls and for the largest hidden case of the bundled problems: each as counted above, for the cases as they
    are now."""
    largest = max(len(case.calls) for slug in available() for case in find_problem(slug).cases if case.hidden)
    reports, security, readme = (" ".join((REPO / page).read_text().split())
                                 for page in ("docs/reports.md", "docs/security.md", "README.md"))
    for stated in (f"{expected_size(1)} for one call ({_bits(1)} bits)",
                   f"{expected_size(2)} for two ({_bits(2)} bits)", f"{expected_size(3)} for three ({_bits(3)} bits)",
                   f"{expected_size(largest)} for the largest hidden case here, of {largest} calls "
                   f"({_bits(largest)} bits)"):
        assert stated in reports
    assert f"{_bits(1)} bits for one call, {_bits(3)} for three, {_bits(largest)} for the largest case here " \
           f"({largest} calls)" in security
    assert f"at most {_bits(1)} bits for a one-call case to {_bits(largest)} bits for the largest" in readme


def test_nothing_the_submission_made_reaches_a_hidden_case_in_any_format_or_export():
    for result, tag in _plays(2):
        report = _report(result)
        exact = _report(result, exact=True)
        assert coarsened(exact) == report
        shown = [render(report, fmt) for fmt in FORMATS]
        shown.append(json.dumps(gradescope.results(Export("gradescope", (Exported("p", 1.0),)),
                                                   [(Exported("p", 1.0), report)])))
        shown.append(json.dumps(prairielearn.results(Exported("p", 1.0), report)))
        for text in shown:
            assert CANARY not in text, (result.verdict, text)
        assert "field" not in report["tests"][0]["output"]


def test_a_hidden_limit_note_names_the_limit_never_a_measured_figure():
    notes = {json.dumps([c.get("limit") for c in _report(r)["tests"][0]["extra_data"]["calls"]])
             for r, _ in _plays(1) if r.verdict in (Verdict.TIME_LIMIT_EXCEEDED, Verdict.MEMORY_LIMIT_EXCEEDED)}
    assert notes == {json.dumps(["exceeded its time limit (1.00 s of CPU time)"]),
                     json.dumps(["exceeded its memory limit of 256 MiB"])}
