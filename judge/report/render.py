"""Render a JSON report (see :mod:`judge.report.build`) as text, Markdown, HTML or JUnit XML, via Jinja2."""

from __future__ import annotations

import functools
import json
import os
from typing import Any

import jinja2

from judge.package.cases import untag_nonfinite
from judge.report.style import ansi, verdict_css

FORMATS = ("text", "json", "markdown", "html", "junit")
_TEMPLATES = {"text": "report.txt.j2", "markdown": "report.md.j2", "html": "report.html.j2",
              "junit": "report.junit.xml.j2"}


def _number(value: Any) -> str:
    value = untag_nonfinite(value)  # a report's NaN and infinities are tagged (judge.report.build)
    if type(value) is float:
        return f"{value:.3e}" if value and (abs(value) < 1e-3 or abs(value) >= 1e7) else f"{value:.6g}"
    return json.dumps(value) if not isinstance(value, str) else value


@functools.lru_cache(maxsize=None)  # templates compile once per process: grading renders hundreds of reports
def environment(color: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("judge.report", "templates"),
        autoescape=jinja2.select_autoescape(["html", "xml"]),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )
    env.filters["num"] = _number
    env.filters["ljust"] = lambda v, n: str(v).ljust(n)
    env.filters["rjust"] = lambda v, n: str(v).rjust(n)
    env.filters["json"] = lambda v: json.dumps(untag_nonfinite(v))
    env.filters["paint"] = (lambda text, verdict: f"\x1b[{ansi(verdict) or '0'}m{text}\x1b[0m") if color else (
        lambda text, verdict: text)
    env.globals["verdict_css"] = verdict_css
    env.filters["ms"] = lambda s: f"{s * 1000:.1f} ms" if s is not None else "-"
    return env


def use_color(stream_is_tty: bool, no_color_flag: bool) -> bool:
    """Colour only on a terminal, and never with ``--no-color`` or ``NO_COLOR`` set (no-color.org)."""
    return stream_is_tty and not no_color_flag and not os.environ.get("NO_COLOR")


def render(report: dict[str, Any], fmt: str, color: bool = False) -> str:
    if fmt == "json":
        return json.dumps(report, indent=2, allow_nan=False) + "\n"
    template = environment(color and fmt == "text").get_template(_TEMPLATES[fmt])
    return template.render(r=report)


def html_fragment(report: dict[str, Any]) -> str:
    """The HTML report without its page around it, styled inside its own ``div``: for a notebook cell's output."""
    return environment(False).get_template("report.fragment.html.j2").render(r=report)
