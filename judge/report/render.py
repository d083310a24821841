"""Render a JSON report (see :mod:`judge.report.build`) as text, Markdown, HTML or JUnit XML, via Jinja2.

Each output type has its own template environment, chosen by the format asked for (never by a template's file
name), and each environment makes every ``{{ … }}`` safe for its output on its own (:mod:`judge.report.escape`):

``html``, ``xml``  autoescaped by Jinja2; every value first shown with :func:`~judge.report.escape.visible`.
                   Nothing from a report is ever marked safe.
``markdown``       every value escaped with :func:`~judge.report.escape.markdown_text`, unless a template asks
                   for a code span (``| code``) or a fenced block (``| fence``), which fit their content.
``text``           every value shown with :func:`~judge.report.escape.visible`; only the judge's own colours
                   (``| paint``, always last) reach a terminal as control bytes.

Before any template sees it, the report itself is replaced by :func:`~judge.report.escape.displayable`: one line
per value but for messages, tracebacks and printed output, so column widths are measured on what is shown.
"""

from __future__ import annotations

import functools
import json
import os
import re
import string
import textwrap
from typing import Any, Callable

import jinja2
import markupsafe
from markupsafe import Markup

from judge import messages
from judge.judging.allowance import STRIKES
from judge.package.cases import untag_nonfinite
from judge.package.text import display_width
from judge.report import escape, junit
from judge.report.build import report_language, verdict_name
from judge.report.style import ansi, verdict_css

FORMATS = ("text", "json", "markdown", "html", "junit")
_TEMPLATES = {"text": "report.txt.j2", "markdown": "report.md.j2", "html": "report.html.j2",
              "junit": "report.junit.xml.j2"}
OUTPUT_TYPES = {"text": "text", "markdown": "markdown", "html": "html", "junit": "xml"}


class _Shown(str):
    """Text a filter has already made safe for its output type (a Markdown code span, a painted verdict)."""


def _number(value: Any) -> str:
    value = untag_nonfinite(value)  # a report's NaN and infinities are tagged (judge.report.build)
    if type(value) is float:
        return f"{value:.3e}" if value and (abs(value) < 1e-3 or abs(value) >= 1e7) else f"{value:.6g}"
    return _json(value) if not isinstance(value, str) else value


def _json(value: Any) -> str:
    """A value as JSON that shows every character as itself (a returned key 均值, not \\u5747\\u503c): what
    cannot be seen or acts on the reader is escaped by the finalizer every ``{{ … }}`` goes through."""
    return json.dumps(value, ensure_ascii=False)


def case_numbers(numbers: list[str]) -> str:
    """Case numbers as runs: ``#6-#25, #28``."""
    values, runs = [int(n) for n in numbers], []
    for value in values:
        if runs and value == runs[-1][1] + 1:
            runs[-1][1] = value
        else:
            runs.append([value, value])
    return ", ".join(f"#{a}" if a == b else f"#{a}-#{b}" for a, b in runs)


def finalizer(output: str) -> Callable[[Any], Any]:
    """What every ``{{ … }}`` of an output type goes through before it is written (and, for HTML and XML,
    escaped by Jinja2 after that)."""
    shown = escape.markdown_text if output == "markdown" else escape.visible

    def finalize(value: Any) -> Any:
        if isinstance(value, (Markup, _Shown)):  # Markup: only the site's own page parts, never report data
            return value
        return shown(value if isinstance(value, str) else str(value))

    return finalize


@functools.lru_cache(maxsize=None)  # templates compile once per process: grading renders hundreds of reports
def environment(output: str, color: bool = False) -> jinja2.Environment:
    """The template environment of one output type: ``html``, ``xml``, ``markdown`` or ``text``."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("judge.report", "templates"),
        autoescape=output in ("html", "xml"), finalize=finalizer(output),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )
    env.filters["num"] = _number
    env.filters["ljust"] = lambda v, n: str(v) + " " * (n - display_width(str(v)))  # by columns: 用例 takes 4
    env.filters["rjust"] = lambda v, n: " " * (n - display_width(str(v))) + str(v)
    env.filters["json"] = lambda v: _json(untag_nonfinite(v))
    env.globals["verdict_css"] = verdict_css
    env.filters["ms"] = lambda s: f"{s * 1000:.1f} ms" if s is not None else "-"
    env.filters["mb"] = lambda m: f"{m:.0f} MB" if m is not None else "-"  # None: nothing was measured
    env.globals.update(words("en", output))  # a class page's words; a report's are said in its own language (render)
    env.globals["exact_hidden"] = exact_hidden
    env.filters["case_numbers"] = case_numbers
    env.filters["url_path"] = escape.url_path
    env.filters["one_line"] = escape.inline
    env.filters["dedent"] = textwrap.dedent  # a trace's own indentation goes; the report's is added (>= 4)
    env.filters["level_only"] = lambda level: re.split(r"[ （]", str(level), maxsplit=1)[0]  # "L2 (limits, ...)",
    # "L2（资源限制, ...）": "L2"
    env.globals["junit"] = junit
    if output == "markdown":
        env.filters["code"] = lambda v: _Shown(escape.markdown_code(str(v)))
        env.filters["fence"] = lambda v: _Shown(escape.markdown_fence(str(v)))
    if output == "text":
        env.filters["paint"] = (lambda text, verdict: _Shown(
            f"\x1b[{ansi(verdict) or '0'}m{escape.visible(str(text))}\x1b[0m")) if color else (
            lambda text, verdict: text)
    return env


def _with_code(template: str, fields: dict[str, Any], text: Callable[[str], str], code: Callable[[str], str]) -> str:
    """``template`` filled in, its own words made safe by ``text`` and each field shown as code by ``code``."""
    return "".join(text(literal) + (code(str(fields[name])) if name is not None else "")
                   for literal, name, _, _ in string.Formatter().parse(template))


def words(lang: str, output: str = "text") -> dict[str, Any]:
    """What a template of ``output`` says in ``lang`` (a report's own, :func:`judge.report.build.build_report`): the
    judge's sentences (escaped like any value), a verdict's or a mode's name, and ``say_code``: a sentence whose
    fields are code (HTML ``<code>``, a Markdown code span; plain in text)."""
    say = functools.partial(messages.say_in, lang)
    shown: dict[str, Callable[[str, dict[str, Any]], Any]] = {
        "html": lambda t, f: Markup(_with_code(t, f, lambda v: str(markupsafe.escape(escape.visible(v))),
                                               lambda v: f"<code>{markupsafe.escape(escape.visible(v))}</code>")),
        "markdown": lambda t, f: _Shown(_with_code(t, f, escape.markdown_text, escape.markdown_code))}

    def say_code(key: str, **fields: Any) -> Any:
        return shown[output](messages.text_in(lang, key), fields) if output in shown else say(key, **fields)

    return {"say": say, "say_code": say_code, "verdict_name": functools.partial(verdict_name, lang),
            "mode_name": lambda mode: say(f"mode_{mode}"),
            "budget_line": lambda budget: say("report_budget", budget=budget, strikes=STRIKES)}


def exact_hidden(report: dict[str, Any]) -> bool:
    """Whether a report shows hidden cases' figures as measured (an author's or an instructor's copy), which a
    student must never see: every rendering of it says so."""
    return any(t["extra_data"]["hidden"] and not t["extra_data"]["coarse"] and t["extra_data"]["cpu_time_s"] is not None
               for t in report["tests"])


def use_color(stream_is_tty: bool, no_color_flag: bool) -> bool:
    """Colour only on a terminal, and never with ``--no-color`` or ``NO_COLOR`` set (no-color.org)."""
    return stream_is_tty and not no_color_flag and not os.environ.get("NO_COLOR")


def render(report: dict[str, Any], fmt: str, color: bool = False, verbose: bool = False) -> str:
    """``report`` in ``fmt``. The security level is its short name (``L2``) unless ``verbose``: its full
    description, some 200 characters of the worker's layers, is for those who ask (and always in JSON)."""
    if fmt == "json":
        return json.dumps(escape.json_safe(report), indent=2, allow_nan=False) + "\n"
    output = OUTPUT_TYPES[fmt]
    template = environment(output, color and output == "text").get_template(_TEMPLATES[fmt])
    lang = report_language(report)
    return template.render(r=escape.displayable(report), verbose=verbose, lang=lang, **words(lang, output))


def html_fragment(report: dict[str, Any], verbose: bool = False) -> str:
    """The HTML report without its page around it, styled inside its own ``div``: for a notebook cell's output."""
    return environment("html").get_template("report.fragment.html.j2").render(
        r=escape.displayable(report), verbose=verbose, **words(report_language(report), "html"))
