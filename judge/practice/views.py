"""Lay out the problem list and the attempt history as terminal tables (wording from :mod:`judge.messages`)."""

from __future__ import annotations

from judge import messages
from judge.command import line
from judge.package.problem import Problem
from judge.package.text import display_width
from judge.judging.verdict import Tone
from judge.practice.history import Attempt, Progress, Status
from judge.report.style import TONES, ansi

STATUS_COLORS = {Status.SOLVED: TONES[Tone.PASSED].ansi, Status.ATTEMPTED: TONES[Tone.LIMIT].ansi, Status.NEW: None}
NO_ATTEMPTS = Progress(Status.NEW, 0)
HISTORY_COLUMNS = ("site_when", "list_column_problem", "site_mode", "report_verdict", "site_passed_column",
                   "site_cpu_samples", "site_code", "history_column_number")
"""the keys of ``judge history``'s columns: the history page's own words"""


def _pad(text: str, width: int, right: bool) -> str:
    gap = " " * (width - display_width(text))
    return gap + text if right else text + gap


def table(header: tuple[str, ...], rows: list[tuple[str, ...]], right: frozenset[int] = frozenset(),
          paint: tuple[int, list[str | None]] | None = None) -> str:
    """Columns two spaces apart. ``paint`` is (column, one ANSI code or None per row): the cells to colour."""
    widths = [max(display_width(cell) for cell in column) for column in zip(header, *rows)]
    lines = []
    for number, row in enumerate([header, *rows]):
        cells = [_pad(cell, widths[i], i in right) for i, cell in enumerate(row)]
        if paint and number and paint[1][number - 1]:
            column = paint[0]
            cells[column] = f"\x1b[{paint[1][number - 1]}m{cells[column]}\x1b[0m"
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def problem_list(problems: list[Problem], progress: dict[str, Progress], color: bool, lang: str = "en") -> str:
    """The problems with their status, title, difficulty and tags in ``lang`` (the slugs as written)."""
    mine = [progress.get(p.slug, NO_ATTEMPTS) for p in problems]
    rows = [(messages.say_in(lang, f"status_{m.status.value}"), p.slug, p.title_in(lang),
             messages.say_in(lang, f"difficulty_{p.meta['difficulty']}"), str(m.submissions),
             ", ".join(messages.tag_in(lang, t) for t in p.meta.get("tags", []))) for p, m in zip(problems, mine)]
    paint = (0, [STATUS_COLORS[m.status] for m in mine]) if color else None
    statuses = [m.status for m in mine]
    summary = messages.say_in(lang, "list_summary", solved=statuses.count(Status.SOLVED), total=len(problems),
                              attempted=statuses.count(Status.ATTEMPTED))
    header = tuple(messages.say_in(lang, f"list_column_{column}") for column in messages.LIST_COLUMNS)
    return table(header, rows, frozenset({4}), paint) + "\n" + summary + "\n"


def cpu_cell(attempt: Attempt, lang: str = "en") -> str:
    """The history's CPU figure: measured on the samples; for an old submit, its coarse bound, marked as one."""
    if attempt.samples_cpu_s is not None:
        return f"{attempt.samples_cpu_s * 1000:.1f} ms"
    bound = attempt.cpu_bound_s
    return messages.say_in(lang, "history_cpu_bound", ms=bound * 1000) if bound is not None else "-"


def attempt_list(attempts: list[Attempt], color: bool, where: str, one_problem: bool, lang: str = "en") -> str:
    """Oldest first, each with its number among its problem's attempts (``judge history --show N``); the problem
    column is left out when every attempt is at ``one_problem``. Words in ``lang``, values as recorded."""
    rows = [(a.local_time, a.problem, messages.say_in(lang, f"mode_{a.mode}"),
             messages.say_in(lang, f"verdict_{a.verdict}"), f"{a.passed}/{a.total}", cpu_cell(a, lang),
             a.code_sha256[:10], str(a.number)) for a in attempts]
    header = tuple(messages.say_in(lang, key) for key in HISTORY_COLUMNS)
    right, verdict_column = frozenset({4, 5, 7}), 3
    if one_problem:
        header, rows = header[:1] + header[2:], [row[:1] + row[2:] for row in rows]
        right, verdict_column = frozenset({3, 4, 6}), 2
    paint = (verdict_column, [ansi(a.verdict) for a in attempts]) if color else None
    return (table(header, rows, right, paint) + "\n"
            + line(lang, "history_where", count=len(attempts), path=where) + "\n")
