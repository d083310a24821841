"""Every output format is safe against every string: what a submission or a class folder controls is fed into
every format, and each output is parsed by a real parser (:mod:`tests.support.readers`).

The fields a submission controls: its exception's type, message and traceback (at import and in a call), what it
printed, the strings it returned (compared as a string, or as an unsupported object's description) and its dict
keys; a class folder controls the file names (student ids, source paths); the judge's own failure message can
quote them too. Case names, titles and field names come from the problem package, but are fed the same way.
Each check renders the same report once with a plain text in those fields and once with the hostile one, and
asserts that the parsed shapes (elements, attributes, rows, lines of the judge's own) are the same and that the
hostile text is there, as text.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.grading.render import CSV_COLUMNS, gradebook_csv, summary_csv, write_outputs
from judge.grading.store import Store
from judge.grading.summary import summarise
from judge.judging.allowance import NotRun, Why
from judge.judging.compare import compare
from judge.judging.result import clean_text, parse
from judge.judging.session import CallResult, CaseLimits, CaseResult
from judge.judging.verdict import Verdict
from judge.package.problem import load_problem
from judge.report.build import build_report
from judge.report.escape import (csv_cell, inline, markdown_code, markdown_fence, markdown_text, url_path,
                                  visible)
from judge.report.render import html_fragment, render
from tests.support.cli import REPO, SLUG
from tests.support.readers import (CONTROL, KEPT, Markup, check_junit, names, read_csv, read_html, read_junit,
                                   read_markdown, read_xml, texts, xml_shape, xml_text)

PROBLEM = load_problem(REPO / "problems" / SLUG)
SAMPLE, HIDDEN = PROBLEM.samples[0], PROBLEM.cases[-1]
EXPECTED = SAMPLE.expected["cpu"]["outputs"]
PLAIN, PLAIN_NAME = "plain words", "plain-name"
OTHER, OTHER_NAME = "other words", "other-name"
"""a second student in the class outputs"""
LIMITS = CaseLimits(1.0, 1 << 30)
EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _worker_error(text: str, boundary: bool) -> dict[str, str]:
    """The error as the judge keeps it: through the trust boundary (as a worker's reply is), or raw."""
    error = {"exc": text, "msg": text, "trace": text}
    return parse({"id": 1, "type": "error", **error}, 1).error if boundary else error


def _returned(value: Any, boundary: bool) -> Any:
    return parse({"id": 1, "type": "result", "value": value}, 1).value if boundary else value


def _call(method: str, verdict: Verdict, value: Any, expected: Any, text: str, **extra: Any) -> CallResult:
    comparison = compare(value, expected, "layer") if verdict is not Verdict.RUNTIME_ERROR else None
    return CallResult(method, verdict, 0.01, 0.02, 1 << 20, value=value, comparison=comparison, output=text, **extra)


def hostile_report(text: str, name: str, boundary: bool = True) -> dict[str, Any]:
    """A report with ``text`` in every field a submission controls and ``name`` as its file and student name:
    a crash with printed output, a wrong string, an unsupported object, wrong dict keys, a hidden case over its
    time limit, a case not run, an import error and a judge failure."""
    error = _worker_error(text, boundary)
    value = _returned(text, boundary)
    methods = [c["method"] for c in SAMPLE.calls]
    results = [
        CaseResult(SAMPLE, LIMITS, Verdict.RUNTIME_ERROR,
                   [_call(methods[0], Verdict.RUNTIME_ERROR, None, None, value, error=error)]),
        CaseResult(SAMPLE, LIMITS, Verdict.WRONG_ANSWER, [_call(methods[2], Verdict.WRONG_ANSWER, value,
                                                                EXPECTED[2], value)]),
        CaseResult(SAMPLE, LIMITS, Verdict.OUTPUT_FORMAT_ERROR, [_call(
            methods[0], Verdict.OUTPUT_FORMAT_ERROR, {"$unsupported": value}, EXPECTED[0], value)]),
        CaseResult(SAMPLE, LIMITS, Verdict.WRONG_ANSWER, [_call(
            methods[0], Verdict.WRONG_ANSWER, _returned([{text: 1.0}] * len(EXPECTED[0]), boundary), EXPECTED[0],
            value)]),
        CaseResult(HIDDEN, LIMITS, Verdict.TIME_LIMIT_EXCEEDED, [_call(
            methods[0], Verdict.TIME_LIMIT_EXCEEDED, None, None, value, error={"exc": "cpu", "msg": "stopped"})]),
        CaseResult(HIDDEN, LIMITS, None, [], NotRun(Why.METHOD, methods[0])),
    ]
    report = build_report(mode="submit", problem=PROBLEM, submission={"path": name, "sha256": "0" * 64},
                          results=results, expected=[c.expected["cpu"]["outputs"] for c in
                                                     [SAMPLE] * 4 + [HIDDEN] * 2],
                          environment={"torch": "2", "device": "cpu", "expected_device": ["cpu"],
                                       "security_level": "L2", "startup_error": error},
                          wall_s=0.5, judge_error=f"cannot read {name}: {text}")
    for number, test in enumerate(report["tests"]):  # case names reach every format too
        test["extra_data"]["case"] = f"{number}/{text}"
        test["name"] = f"{number}/{text}: {text}"
    report["grading"] = {"student": name, "source": f"/class/{name}", "content_sha256": "", "judge_key": "",
                         "run": "", "judged_at": ""}
    return report


def shown(text: str, boundary: bool) -> str:
    """What a person must see of ``text`` on one line."""
    return inline(clean_text(text) if boundary else text)


@functools.lru_cache(maxsize=None)
def plain(fmt: str) -> str:
    return render(hostile_report(PLAIN, PLAIN_NAME), fmt)


def same_markup(hostile: Markup, benign: Markup, name: str) -> None:
    """The same elements and attributes in the same order; links differ only by the student's name."""
    assert hostile.shape == benign.shape
    for got, want in zip(hostile.attributes, benign.attributes):
        assert {k: v for k, v in got.items() if k != "href"} == {k: v for k, v in want.items() if k != "href"}
    links = sorted(a["href"] for a in hostile.attributes if "href" in a)
    assert links == sorted(a["href"].replace(url_path(PLAIN_NAME), url_path(name))
                           for a in benign.attributes if "href" in a)


def _judge_lines(text_report: str) -> list[str]:
    """The lines the judge itself writes at the left margin (anything a submission wrote is indented further)."""
    return [line for line in text_report.splitlines() if line.strip() and len(line) - len(line.lstrip(" ")) < 4]


@EXAMPLES
@given(texts, names, st.booleans())
def test_every_report_format_parses_and_shows_the_text_as_text(text, name, boundary):
    report = hostile_report(text, name, boundary)
    one_line = shown(text, boundary)
    for fmt in ("html", "markdown"):
        output = render(report, fmt)
        parsed = read_html(output) if fmt == "html" else read_markdown(output)
        same_markup(parsed, read_html(plain(fmt)) if fmt == "html" else read_markdown(plain(fmt)), name)
        assert one_line in parsed.text and inline(name) in parsed.text
        assert visible(clean_text(text) if boundary else text).split("\n")[0] in parsed.text
    fragment = read_html(html_fragment(report))
    assert fragment.shape == read_html(html_fragment(hostile_report(PLAIN, PLAIN_NAME))).shape

    output = render(report, "text")
    assert not CONTROL.search(output)
    assert len(_judge_lines(output)) == len(_judge_lines(plain("text")))
    assert one_line in output and inline(name) in output

    junit = render(report, "junit")
    assert xml_shape(read_xml(junit)) == xml_shape(read_xml(plain("junit")))
    assert one_line in xml_text(read_xml(junit))
    check_junit(junit)

    loaded = json.loads(render(report, "json"))
    json.dumps(loaded, ensure_ascii=False).encode("utf-8")  # no lone surrogate survives: strict parsers read it
    assert loaded["submission"]["path"] == name.encode("utf-8", "surrogateescape").decode("utf-8", "replace") or \
        "\\x" in loaded["submission"]["path"]


def _class(folder: Path, text: str, name: str) -> dict[str, str]:
    reports = [hostile_report(text, name), hostile_report(OTHER, OTHER_NAME)]
    reports[1]["tests"] = reports[1]["tests"][:1]
    store = Store(folder)
    for report in reports:
        store.save(report)
    summary = summarise(SLUG, PROBLEM.title, None, reports)
    write_outputs(folder, summary, reports)
    return {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir() if p.is_file()}


@functools.lru_cache(maxsize=None)
def plain_class() -> dict[str, str]:
    with tempfile.TemporaryDirectory() as folder:
        return _class(Path(folder), PLAIN, PLAIN_NAME)


@EXAMPLES
@given(texts, names)
def test_every_class_output_is_written_parses_and_shows_the_names_as_text(text, name):
    if name == OTHER_NAME or text == OTHER:
        return
    with tempfile.TemporaryDirectory() as folder:
        written = _class(Path(folder), text, name)
        student_page = (Path(folder) / "students" / name / "report.html").read_text(encoding="utf-8")
    benign = plain_class()
    assert written.keys() == benign.keys() == {"summary.csv", "gradebook.csv", "summary.json", "junit.xml",
                                               "index.html"}

    index = read_html(written["index.html"])
    same_markup(index, read_html(benign["index.html"]), name)
    assert inline(name) in index.text
    assert read_html(student_page).shape == read_html(render(hostile_report(PLAIN, PLAIN_NAME), "html")).shape

    junit = read_xml(written["junit.xml"])
    suites = lambda root: sorted(xml_shape(suite) for suite in root.iter("testsuite"))  # noqa: E731 -- by name
    assert suites(junit) == suites(read_xml(benign["junit.xml"])) and len(list(junit)) == 2
    assert {s.get("name") for s in junit.iter("testsuite")} == {inline(name), OTHER_NAME}
    check_junit(written["junit.xml"])

    rows = read_csv(written["summary.csv"])
    cases = len(json.loads(written["summary.json"])["cases"])
    assert len(rows) == 3 and all(len(row) == len(CSV_COLUMNS) + cases for row in rows)  # and each case's verdict
    cells = [cell for row in rows[1:] + read_csv(written["gradebook.csv"])[1:] for cell in row]
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)
    assert csv_cell(name) in cells and csv_cell(name) in (inline(name), "'" + inline(name))  # a name may start with '

    assert {row["student"] for row in json.loads(written["summary.json"])["students"]} == {name, OTHER_NAME}


@EXAMPLES
@given(texts, names)
def test_every_site_page_that_shows_a_submission_escapes_it(text, name):
    from judge.practice.history import Attempt
    from judge.serve.pages import TEMPLATES, page_words

    def page(template: str, **context: Any) -> Markup:
        return read_html(TEMPLATES.get_template(template).render(token="t", has_class=True, **page_words("en"), **context))

    def pages(text: str, name: str) -> list[Markup]:
        report = html_fragment(hostile_report(text, name))
        attempt = Attempt("2025-01-01T00:00:00+00:00", SLUG, "run", "wrong_answer", 0, 1, 0.1, 0.2, "0" * 64, name)
        return [page("student.html.j2", student=name, report=report, code=text, verdict="wrong_answer", source=name),
                page("attempt.html.j2", problem=PROBLEM, report=report, code=text, verdict="wrong_answer"),
                page("history.html.j2", problem=PROBLEM, rows=[{"attempt": attempt, "key": "k", "cpu": "0.1 ms"}], kept={"k"}),
                page("error.html.j2", message=f"no student '{name}'")]

    for hostile, benign in zip(pages(text, name), pages(PLAIN, PLAIN_NAME)):
        assert hostile.shape == benign.shape
        assert inline(name) in hostile.text


def test_a_lone_surrogate_is_replaced_where_a_reply_enters_the_judge():
    reply = parse({"id": 1, "type": "result", "value": {"\ud800key": ["\udcff", 1.5, {"x": "a\udfffb"}]}}, 1)
    assert reply.value == {"\ufffdkey": ["\ufffd", 1.5, {"x": "a\ufffdb"}]}
    error = parse({"id": 1, "type": "error", "exc": "E\ud800", "msg": "m\udcff", "trace": 3}, 1).error
    assert error == {"exc": "E\ufffd", "msg": "m\ufffd", "trace": ""}


def test_junit_counts_match_the_elements_and_crashes_are_errors():
    """A report of 2 wrong answers and 28 cases not run once claimed ``failures="30"``."""
    report = hostile_report(PLAIN, PLAIN_NAME)
    totals, suites = read_junit(render(report, "junit"))
    assert totals == {"tests": 7, "failures": 3, "errors": 3, "skipped": 1}  # 6 cases and the judge's failure
    root = read_xml(render(report, "junit"))
    kinds = {case.get("name"): [child.tag for child in case] for case in root.iter("testcase")}
    assert kinds == {"judge": ["error"], "0/plain words": ["error"], "1/plain words": ["failure"],
                     "2/plain words": ["failure"], "3/plain words": ["failure"], "4/plain words": ["error"],
                     "5/plain words": ["skipped"]}


def test_a_spreadsheet_formula_is_shown_as_text():
    from judge.grading.summary import Row

    from judge.grading.summary import ClassSummary

    rows = [Row('=HYPERLINK("https://evil.example","x")', "accepted", 1, 1, 1.0, 1.0, 0.5, "+cmd|' /C calc'!A0"),
            Row("-2+3", "accepted", 1, 1, 1.0, 1.0, 0.5, "@SUM(A1)")]
    summary = ClassSummary(SLUG, "T", None, rows, [], points=1.0)
    parsed = read_csv(summary_csv(summary))
    assert parsed[1][0] == "'=HYPERLINK(\"https://evil.example\",\"x\")" and parsed[1][8] == "'+cmd|' /C calc'!A0"
    assert parsed[2][0] == "'-2+3" and parsed[2][8] == "'@SUM(A1)" and parsed[2][7] == "0.5"
    assert summary_csv(summary, bom=True).startswith("\ufeffstudent,")
    assert [row[0] for row in read_csv(gradebook_csv(summary))[1:]] == [parsed[1][0], parsed[2][0]]


@settings(max_examples=200, deadline=None)
@given(texts)
def test_visible_text_holds_only_what_xml_allows_and_a_terminal_shows(text):
    for shown_text in (visible(text), inline(text)):
        assert not CONTROL.search(shown_text.replace("\n", "").replace("\t", ""))
        assert not re.search("[\ufffe\uffff]", shown_text)
        shown_text.encode("utf-8")
    assert "\n" not in inline(text) and visible(visible(text)) == visible(text)


def test_every_character_unicode_calls_invisible_or_acting_is_escaped_and_joiners_stay():
    """Against Unicode's own properties (readers.CONTROL), every code point: a list in the judge can fall behind."""
    acting = [chr(c) for c in range(sys.maxunicode + 1) if CONTROL.match(chr(c))]
    assert len(acting) > 4000  # the tag and variation selector blocks alone
    assert [hex(ord(ch)) for ch in acting if visible(ch) == ch or inline(ch) == ch] == []
    assert all(visible(ch) == ch for ch in KEPT)


ESCAPES = [
    (visible, "a\x1b[31mb\r\n\tc\x07\x00\x7f\x9b", "a\\x1b[31mb\\r\n\tc\\x07\\x00\\x7f\\x9b"),
    (visible, "name-" + os.fsdecode(b"\xff\xfe"), "name-\\xff\\xfe"),  # a file name's bytes
    (visible, "lone \ud800 and \udfff", "lone \\ud800 and \\udfff"),
    (visible, "rtl \u202eevil\u202c \u2066 \ufffe", "rtl \\u202eevil\\u202c \\u2066 \\ufffe"),
    (visible, "<b>&\"'</b> 中文 \U0001f600", "<b>&\"'</b> 中文 \U0001f600"),  # markup is the template's job
    (inline, "two\nlines\tand a tab", "two\\nlines\\tand a tab"),
    (markdown_text, "*em* _x_ snake_case `c` [l](u) <b> &amp; | $m$ ~~s~~ \\",
     "\\*em\\* \\_x\\_ snake_case \\`c\\` \\[l\\](u) \\<b> \\&amp; \\| \\$m\\$ \\~\\~s\\~\\~ \\\\"),
    (markdown_code, "a ``` b", "````a ``` b````"),
    (markdown_code, "`x`", "`` `x` ``"),
    (markdown_code, "", "` `"),
    (markdown_fence, "x\n```\n````y", "`````\nx\n```\n````y\n`````"),
    (csv_cell, '=HYPERLINK("x")', "'=HYPERLINK(\"x\")"),
    (csv_cell, "\t=1", "'\\t=1"),
    (csv_cell, "ada", "ada"),
    (csv_cell, -1.5, -1.5),
    (url_path, "a b/c?#%", "a%20b%2Fc%3F%23%25"),
    (url_path, os.fsdecode(b"\xff.py"), "%FF.py"),
]


@pytest.mark.parametrize("escape, text, shown", ESCAPES,
                         ids=[f"{escape.__name__}-{i}" for i, (escape, _, _) in enumerate(ESCAPES)])
def test_each_escape_shows_text_as_it_should(escape, text, shown):
    assert escape(text) == shown


def test_the_editor_gets_the_learners_code_back_exactly():
    """The one place text is not shown visibly: the site's editor, whose text is saved back as the code."""
    from judge.practice.views import NO_ATTEMPTS
    from judge.serve.pages import TEMPLATES, page_words

    code = 'print("\\x1b[31m</textarea><script>alert(1)</script>")\f\nx = "\t\u202e"\n'
    page = TEMPLATES.get_template("problem.html.j2").render(
        token="t", has_class=False, problem=PROBLEM, statements={}, languages={}, code=code, progress=NO_ATTEMPTS,
        running="")
    parsed = read_html(page)
    assert ("script", ("src",)) in parsed.shape and ("script", ()) not in parsed.shape
    start = page.index('<textarea id="code" spellcheck="false">') + len('<textarea id="code" spellcheck="false">')
    assert read_html(page[start:page.index("</textarea>", start)]).text == code
