"""Judge a solution from Jupyter: ``check(slug, Solution)`` and the ``%%judge <slug> [--submit] [--lang zh]`` cell
magic, each in the language asked for (``lang``: its report and its one-line errors).

Both send source text (:mod:`judge.practice.source`) through the same isolated worker as ``judge run``, record
the attempt in the history, and show the report: as HTML beside plain text where IPython displays rich output
(a notebook picks the HTML, a terminal the text), as printed text anywhere else.
"""

from __future__ import annotations

import shlex
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge import messages
from judge.command import error_line
from judge.errors import BadInput, JudgeError
from judge.package.problem import find_problem
from judge.practice.history import record_report
from judge.practice.source import cell_submission, notebook_cells, source_of
from judge.report.render import html_fragment, render

SOURCE_LABEL = "notebook"


@dataclass(frozen=True)
class CheckResult:
    """What ``check`` returns: the verdict at a glance, the full JSON report in ``report``."""

    verdict: str
    passed: int
    total: int
    report: dict[str, Any] = field(repr=False)


def judge_source(slug: str, source: str, submit: bool = False, lang: str = "en") -> dict[str, Any]:
    """Judge ``source`` as a submission file and record the attempt, its report written in ``lang``; the judge's
    own failures become a report, and only bad input (an unknown problem, no expected values) is raised."""
    from judge.judging.plan import Asked
    from judge.judging.submission import read_submission
    from judge.pipeline import Judge, Submitted, judge_guarded

    problem = find_problem(slug)
    with tempfile.TemporaryDirectory(prefix="judge-notebook-") as folder:
        path = Path(folder) / f"{problem.slug}.py"
        path.write_text(source, encoding="utf-8")
        submitted = Submitted(path, read_submission(path), SOURCE_LABEL)
        report = judge_guarded(submitted, Judge(Asked(problem, "submit" if submit else "run", "cpu"), lang=lang))
    _, warning = record_report(report, code=source)
    if warning:
        print(f"judge: {warning}", file=sys.stderr)
    return report


def show(report: dict[str, Any]) -> None:
    text = render(report, "text")
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        display({"text/plain": text, "text/html": html_fragment(report)}, raw=True)
    else:
        print(text, end="")


def check(slug: str, solution: type | str, *, submit: bool = False, lang: str = "en") -> CheckResult:
    """Judge a ``Solution`` class (or its source) on the sample cases, or on every case with ``submit=True``;
    ``lang`` (one of :data:`judge.messages.LANGUAGES`) is the language of its report and of the error it raises
    on bad input."""
    if lang not in messages.LANGUAGES:
        raise BadInput("check_bad_lang", known=", ".join(messages.LANGUAGES), given=lang)
    try:
        report = judge_source(slug, source_of(solution), submit, lang)
    except JudgeError as exc:
        raise exc.in_language(lang) from None
    show(report)
    return CheckResult(report["verdict"], report["passed"], report["total"], report)


def magic_options(line: str) -> tuple[str, bool, str] | None:
    """``<slug> [--submit] [--lang LANG]``: the slug, whether to submit and the language; None for anything else."""
    words = shlex.split(line)
    if not words or words[0].startswith("-"):
        return None
    slug, rest, submit, lang = words[0], words[1:], False, "en"
    while rest:
        word = rest.pop(0)
        if word == "--submit":
            submit = True
        elif word == "--lang" and rest and rest[0] in messages.LANGUAGES:
            lang = rest.pop(0)
        else:
            return None
    return slug, submit, lang


def judge_cell(line: str, cell: str) -> None:
    """The ``%%judge <slug> [--submit] [--lang LANG]`` cell magic: judge the cell as a file. Bad use is one line,
    not a traceback."""
    options = magic_options(line)
    if options is None:
        print(f"judge: {messages.say('magic_usage')}", file=sys.stderr)
        return
    slug, submit, lang = options
    try:
        report = judge_source(slug, cell_submission(notebook_cells(), cell), submit, lang)
    except JudgeError as exc:
        print(f"judge: {error_line(exc, lang)}", file=sys.stderr)
        return
    show(report)
    if report["verdict"] != "compile_error":
        define(cell)


def define(cell: str) -> None:
    """Run the cell in the kernel, as a cell without the magic would be run, so that the class it judged is the
    ``Solution`` a later ``check(slug, Solution)`` judges. Its code was judged in a worker first; here it runs in
    the learner's own kernel, where every other cell of theirs runs. A file that does not import was reported as
    a compile error and is not run again."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None:
        shell.ex(cell)


def register(shell: Any) -> None:
    shell.register_magic_function(judge_cell, magic_kind="cell", magic_name="judge")
