"""Judge a solution from Jupyter: ``check(slug, Solution)`` and the ``%%judge <slug> [--submit]`` cell magic.

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
from judge.errors import JudgeError
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


def judge_source(slug: str, source: str, submit: bool = False) -> dict[str, Any]:
    """Judge ``source`` as a submission file and record the attempt; the judge's own failures become a report,
    and only bad input (an unknown problem, no expected values) is raised."""
    from judge.judging.plan import Asked
    from judge.judging.submission import read_submission
    from judge.pipeline import Judge, Submitted, judge_guarded

    problem = find_problem(slug)
    with tempfile.TemporaryDirectory(prefix="judge-notebook-") as folder:
        path = Path(folder) / f"{problem.slug}.py"
        path.write_text(source, encoding="utf-8")
        submitted = Submitted(path, read_submission(path), SOURCE_LABEL)
        report = judge_guarded(submitted, Judge(Asked(problem, "submit" if submit else "run", "cpu")))
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


def check(slug: str, solution: type | str, *, submit: bool = False) -> CheckResult:
    """Judge a ``Solution`` class (or its source) on the sample cases, or on every case with ``submit=True``."""
    report = judge_source(slug, source_of(solution), submit)
    show(report)
    return CheckResult(report["verdict"], report["passed"], report["total"], report)


def judge_cell(line: str, cell: str) -> None:
    """The ``%%judge <slug> [--submit]`` cell magic: judge the cell as a file. Bad use is one line, not a traceback."""
    words = shlex.split(line)
    if not words or words[0].startswith("-") or set(words[1:]) - {"--submit"}:
        print(f"judge: {messages.say('magic_usage')}", file=sys.stderr)
        return
    try:
        report = judge_source(words[0], cell_submission(notebook_cells(), cell), "--submit" in words)
    except JudgeError as exc:
        print(f"judge: {exc}", file=sys.stderr)
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
