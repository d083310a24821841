"""What every page of the site shares: the site's state, the templates, and the language a page is said in.

A page's language is ``?lang=`` when it is one of :data:`judge.messages.LANGUAGES`, else English: the list page's
switch sets it, the problem page's links and its script's API calls carry the language picked there, so that a
refusal (an unknown problem, a bad custom case) is said in the language the learner reads.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import HTMLResponse

from judge import messages
from judge.report.escape import inline
from judge.report.render import finalizer, words
from judge.serve.judging import Judging

LANGUAGES = messages.LANGUAGES


@dataclass(frozen=True)
class Site:
    token: str
    judging: Judging
    graded: Path | None
    """the ``judge grade`` output folder of ``--class``, or None"""
    exact: bool = False
    """``--exact-figures``: the class view shows hidden cases' figures as measured (instructor's copies)"""


def _environment() -> jinja2.Environment:
    """Every page is HTML: autoescaped, each value shown visibly as in the reports (the report fragments and
    statements the judge renders itself are the only Markup)."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("judge.serve", "templates"),
                             autoescape=True, finalize=finalizer("html"), trim_blocks=True, lstrip_blocks=True)
    env.globals["say"] = messages.say
    env.filters["one_line"] = inline  # names (files, students) and messages: never a line of their own
    env.filters["as_typed"] = lambda code: Markup(escape(code))  # the editor's text: HTML-escaped only, so it
    # comes back exactly as the learner typed it (a form feed or an escape byte in a string literal included)
    return env


TEMPLATES = _environment()


def page_language(request: Request) -> str:
    """The language a page is shown in: ``?lang=`` when it is one of :data:`LANGUAGES` (the list page's switch, and
    the problem page's links once the learner picks a language there), else English."""
    return lang if (lang := request.query_params.get("lang", "en")) in LANGUAGES else "en"


def said(request: Request, key: str, **fields: Any) -> str:
    """A message in the language of the page that asked (an API call's ``?lang=``, as the page's script sends)."""
    return messages.say_in(page_language(request), key, **fields)


def page_words(lang: str) -> dict[str, Any]:
    """What a page's template says in ``lang``: the report's words (:func:`judge.report.render.words`), tags,
    statuses and difficulties, and what a link adds to stay in that language."""
    return {**words(lang, "html"), "lang": lang, "languages": LANGUAGES,
            "in_lang": "" if lang == "en" else f"?lang={lang}",
            "tag_name": functools.partial(messages.tag_in, lang),
            "status_name": lambda status: messages.say_in(lang, f"status_{status}"),
            "difficulty_name": lambda level: messages.say_in(lang, f"difficulty_{level}")}


def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    site: Site = request.app.state.site
    html = TEMPLATES.get_template(name).render(token=site.token, has_class=site.graded is not None,
                                               **page_words(page_language(request)), **context)
    return HTMLResponse(html, status_code=status)
