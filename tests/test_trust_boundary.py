"""Property-based tests of the trust boundary: whatever a worker sends back, the parent never crashes.

The worker is untrusted once the submission is imported, so its reply line can be anything: wrong types, huge
numbers, deep nesting, invalid UTF-8, a truncated line, extra lines. These tests feed such replies through every
step the parent applies to them (parse the line, check the reply, compare the value, build and render the report)
and check that each step answers instead of raising.
"""

from __future__ import annotations

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.judging.compare import compare
from judge.judging.result import MAX_DEPTH, Reply, depth, parse
from judge.judging.limits import CaseLimits
from judge.judging.session import CallResult, CaseResult
from judge.judging.verdict import Verdict
from judge.package.problem import load_problem
from judge.report.build import build_report
from judge.report.render import FORMATS, render
from judge.worker.runner import Outcome
from tests.support.cli import REPO, SLUG

PROBLEM = load_problem(REPO / "problems" / SLUG)
SAMPLE = PROBLEM.samples[0]
EXPECTED = SAMPLE.expected["cpu"]["outputs"]
"""one value per call: a list of stat dicts, another list of stat dicts, and a diagnosis string"""

CALL_ID = 7

scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=-10**400, max_value=10**400)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30)
           | st.sampled_from([1e308, -1e308, 5e-324, -0.0, 2**63, -2**63 - 1, "NaN", "Infinity", "$unsupported"]))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(
        st.sampled_from(["mean", "std", "dead_fraction", "norm", "$unsupported", "x", ""]) | st.text(max_size=8),
        inner, max_size=6),
    max_leaves=40)


def nested(levels: int, leaf: object = 0.5, kind: str = "list") -> object:
    """``levels`` lists (or dicts) inside each other, built without recursion."""
    value = leaf
    for _ in range(levels):
        value = [value] if kind == "list" else {"mean": value}
    return value


deep_values = st.builds(nested, st.integers(0, 5000), scalars, st.sampled_from(["list", "dict"]))
messages = st.fixed_dictionaries(
    {},
    optional={"type": st.sampled_from(["result", "error", "ready", "import_error", "built"]) | scalars,
              "id": st.sampled_from([CALL_ID, CALL_ID + 1, True, float(CALL_ID), str(CALL_ID), None]) | st.integers(),
              "value": values | deep_values, "exc": values, "msg": values | st.text(), "trace": values})
hostile_messages = messages | values | deep_values


def _reply_lines() -> st.SearchStrategy[bytes]:
    good = json.dumps({"id": CALL_ID, "type": "result", "value": EXPECTED[0]}).encode()
    truncated = st.integers(0, len(good)).map(lambda n: good[:n])
    extra = st.binary(max_size=200).map(lambda tail: good + b"\n" + tail)
    nesting = st.integers(1, 200_000).map(lambda n: b"[" * n + b"]" * n)
    unclosed = st.integers(1, 200_000).map(lambda n: b'{"value": ' + b"[" * n)
    huge = st.sampled_from([b"1" * 5000, b"-" + b"9" * 4301, b"1e999", b"-1e999", b"NaN", b"[Infinity, -Infinity]",
                            b'{"id": 7, "type": "result", "value": 1' + b"0" * 5000 + b"}",
                            b'{"id": 7, "type": "result", "value": 1e400}'])
    bad_utf8 = st.binary(max_size=50).map(lambda b: b'{"id": 7, "type": "result", "value": "' + b + b'\xff\xfe"}')
    text = messages.map(lambda m: json.dumps(m, allow_nan=True, default=str).encode() if depth(m) <= MAX_DEPTH else b"{")
    return st.binary(max_size=300) | truncated | extra | nesting | unclosed | huge | bad_utf8 | text


@settings(max_examples=300, deadline=None)
@given(_reply_lines())
def test_any_reply_line_parses_or_is_refused(line):
    message = Outcome(line=line).message()
    reply = parse(message, CALL_ID)
    assert reply is None or isinstance(reply, Reply)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_messages)
def test_a_checked_reply_has_the_right_id_and_a_bounded_value(message):
    reply = parse(message, CALL_ID)
    if reply is None:
        return
    assert type(message) is dict and type(message["id"]) is int and message["id"] == CALL_ID
    if reply.kind == "error":
        assert set(reply.error) == {"exc", "msg", "trace"}
        assert all(type(v) is str and len(v) <= 2000 for v in reply.error.values())
    else:
        assert depth(reply.value) <= MAX_DEPTH


def test_true_is_not_the_id_one_and_deep_values_are_refused():
    assert parse({"id": True, "type": "result", "value": 1.0}, 1) is None
    assert parse({"id": 1, "type": "result", "value": nested(MAX_DEPTH + 1)}, 1) is None
    assert parse({"id": 1, "type": "result", "value": nested(MAX_DEPTH)}, 1) is not None
    assert parse({"id": 1, "type": "error", "msg": nested(10_000)}, 1).error["msg"] == ""


@settings(max_examples=300, deadline=None)
@given(values | deep_values.filter(lambda v: depth(v) <= MAX_DEPTH), st.sampled_from(EXPECTED + [0.5, 3, math.nan]))
def test_compare_answers_for_any_value(got, expected):
    result = compare(got, expected, "layer")
    assert result.accepted in (True, False)
    for difference in result.differences + ([result.format_error] if result.format_error else []):
        assert difference.error is None or difference.error >= 0 or math.isnan(difference.error)
        assert difference.tolerance is None or difference.tolerance > 0


def _report_for(value: object, hidden: bool) -> dict:
    case = SAMPLE if not hidden else PROBLEM.cases[-1]
    expected = EXPECTED[0] if not hidden else case.expected["cpu"]["outputs"][0]
    comparison = compare(value, expected, "layer")
    verdict = (Verdict.OUTPUT_FORMAT_ERROR if comparison.format_error else
               Verdict.ACCEPTED if comparison.accepted else Verdict.WRONG_ANSWER)
    call = CallResult("compute_activation_stats", verdict, value=value, comparison=comparison,
                      output="printed \udcff \x00 text")
    result = CaseResult(case, CaseLimits(1.0, 1 << 30), verdict, [call])
    return build_report(mode="submit", problem=PROBLEM, submission={"path": "s.py", "sha256": ""},
                        results=[result], expected=[[expected]],
                        environment={"torch": "x", "device": "cpu", "expected_device": ["cpu"],
                                     "security_level": "L2"}, wall_s=0.1)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_reply_lines(), st.booleans())
def test_any_reply_renders_in_every_report_format(line, hidden):
    reply = parse(Outcome(line=line).message(), CALL_ID)
    value = reply.value if reply and reply.kind == "result" else None
    report = _report_for(value, hidden)
    for fmt in FORMATS:
        assert render(report, fmt)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values | deep_values.filter(lambda v: depth(v) <= MAX_DEPTH), st.booleans())
def test_any_checked_value_renders_in_every_report_format(value, hidden):
    report = _report_for(value, hidden)
    for fmt in FORMATS:
        assert render(report, fmt)
