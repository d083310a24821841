"""Render a problem statement from its Jinja2 template, its metadata and its own sample cases.

The template receives ``problem`` (the metadata), ``constants``, ``methods``, ``rule`` (the comparison rule's
formula, stated in every statement), ``comparison`` (the rule as a sentence in the statement's language; both
derived from the problem's tolerance) and ``examples``: one per sample case, each with its ``title`` (in the statement's
language when the case file has it under ``translations``), the ``objects`` lines and the ``calls`` with the
expected output as JSON. Examples are never written by hand, so they cannot drift from the cases the judge
runs, and every language shows the same ones: only the prose of ``statement.<lang>.md.j2`` differs.
"""

from __future__ import annotations

import json
from typing import Any

import jinja2
from markupsafe import escape
from markdown_it import MarkdownIt

from judge import messages
from judge.errors import BadInput
from judge.package.describe import describe_call, describe_objects
from judge.package.problem import Problem
from judge.package.text import to_terminal

HTML_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;line-height:1.5}}
pre,code{{background:#f6f6f6}}pre{{padding:.6rem;overflow:auto}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:.2rem .5rem}}</style></head>
<body>
{body}</body></html>
"""


def examples(problem: Problem, lang: str = "en") -> list[dict[str, Any]]:
    found = []
    for case in problem.samples:
        outputs = case.outputs("cpu")
        if outputs is None:
            raise BadInput("no_expected", path=case.path, device="cpu", slug=problem.slug)
        found.append({
            "title": case.titles.get(lang, case.title),
            "objects": describe_objects(case, lang),
            "calls": [{"call": describe_call(call), "output": json.dumps(out)} for call, out in zip(case.calls, outputs)],
        })
    return found


def context(problem: Problem, lang: str = "en") -> dict[str, Any]:
    """What a statement template sees; ``problem.title``, ``problem.difficulty`` and ``problem.tags`` are said in the
    statement's language."""
    difficulty = messages.say_in(lang, f"difficulty_{problem.meta['difficulty']}")
    tags = [messages.tag_in(lang, tag) for tag in problem.meta.get("tags", [])]
    shown = {**problem.meta, "title": problem.title_in(lang), "difficulty": difficulty, "tags": tags}
    return {"problem": shown, "constants": problem.constants, "methods": problem.methods,
            "rule": problem.tolerance.formula, "comparison": problem.tolerance.sentence(lang),
            "examples": examples(problem, lang)}


def render_markdown(problem: Problem, lang: str = "en") -> str:
    path = problem.template(lang)
    if not path.exists():
        raise BadInput("problem_invalid", path=path, problem=f"no statement template for language '{lang}'")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(path.parent), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    try:
        return env.get_template(path.name).render(**context(problem, lang))
    except jinja2.TemplateError as exc:
        raise BadInput("problem_invalid", path=path, problem=f"the template does not render ({exc})") from None


def render_statement(problem: Problem, fmt: str = "markdown", lang: str = "en", color: bool = False) -> str:
    """``markdown`` as the template renders it, ``text`` for a terminal (``color`` adds ANSI styles), ``html``."""
    text = render_markdown(problem, lang)
    if fmt == "text":
        return to_terminal(text, color)
    if fmt != "html":
        return text
    return HTML_PAGE.format(lang=lang, title=escape(problem.title_in(lang)), body=markdown_html(text))


def markdown_html(text: str) -> str:
    """HTML from a rendered statement's Markdown; raw HTML in it is escaped, never passed through."""
    return MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
