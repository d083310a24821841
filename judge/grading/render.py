"""Write what an instructor opens, all rebuilt from stored results: each student's HTML report, and for the class
``summary.csv``, ``gradebook.csv``, ``summary.json``, ``junit.xml`` and ``index.html`` (layout: :mod:`judge.grading`).

Student ids are file names, and file names may hold any bytes: every output shows them through
:mod:`judge.report.escape` (``summary.json`` keeps them exactly, as the key to each student's folder). The
CSV's cells are neutralised against spreadsheet formulas; ``csv_bom`` starts ``summary.csv`` with a UTF-8 byte
order mark, which Excel needs to read UTF-8 (names with accents) but which a plain CSV reader keeps as part of the
first column's name, so it is off unless asked for (``judge grade --csv-bom``).

``gradebook.csv`` is what Moodle's gradebook imports as it is (Grades > Import > CSV file; its importer,
``grade/import/csv/classes/load_data.php``, maps one column to the users and each other column to a grade item,
a grade item's comments, or nothing): ``student`` (the id, to map to the username, ID number or email address it
is), ``percent`` (0 to 100, for a new grade item, whose maximum is 100), ``points`` (for an existing item whose
maximum is the problem's points) and ``feedback``. Moodle refuses the whole file when one row names no user, and a
grade above 100 unless the site allows it, so only students with an answer are in it: a result of the judge's own
failure (``internal_error``) is judged again on the next run and left out until then.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from judge import messages
from judge.grading.store import EXACT, RESULTS, STUDENTS, atomic_write
from judge.grading.summary import ClassSummary, Row
from judge.judging.verdict import Severity, look
from judge.report.escape import csv_cell, displayable
from judge.report.build import verdict_name
from judge.report.render import environment, render, words

STUDENT_HTML = "report.html"
CSV_COLUMNS = ("student", "verdict", "points", "max_points", "percent", "passed", "total", "time_s", "source")
"""the summary's columns before one per case (each case's verdict, by its id)"""
GRADEBOOK_COLUMNS = ("student", "percent", "points", "feedback")
BOM = "\ufeff"


def _stale(html: Path, sources: list[Path]) -> bool:
    try:
        return html.stat().st_mtime_ns < max(p.stat().st_mtime_ns for p in sources if p.exists())
    except (OSError, ValueError):
        return True


def _student_html(out: Path, report: dict[str, Any], again: bool) -> None:
    """Render a student's report unless the one on disk is newer than its stored result (``again``: anyway)."""
    folder = out / STUDENTS / report["grading"]["student"]
    html = folder / STUDENT_HTML
    if again or _stale(html, [folder / RESULTS, folder / EXACT]):
        atomic_write(html, render(report, "html"), durable=False)


def _csv(header: list[str], rows: list[list[Any]], bom: bool = False) -> str:
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow([csv_cell(cell) for cell in header])
    for row in rows:
        writer.writerow([csv_cell(cell) if isinstance(cell, str) else cell for cell in row])
    return (BOM if bom else "") + text.getvalue()


def summary_csv(summary: ClassSummary, bom: bool = False) -> str:
    """One row per student: the columns of ``CSV_COLUMNS``, then each case's verdict."""
    cases = [c.case for c in summary.cases]
    rows = [[getattr(row, column) for column in CSV_COLUMNS] + [row.cases.get(case, "") for case in cases]
            for row in summary.rows]
    return _csv([*CSV_COLUMNS, *cases], rows, bom)


def _answered(row: Row) -> bool:
    found = look(row.verdict)
    return found is not None and found.severity is not Severity.JUDGE_FAULT


def gradebook_csv(summary: ClassSummary, lang: str = "en") -> str:
    """Moodle's grade import: one row per student with an answer (see above), its feedback in ``lang``."""
    rows = [[row.student, row.percent, row.points, messages.say_in(
                lang, "gradebook_feedback", verdict=verdict_name(lang, row.verdict), passed=row.passed, total=row.total)]
            for row in summary.rows if _answered(row)]
    return _csv(list(GRADEBOOK_COLUMNS), rows)


def _previous_exact(out: Path) -> bool | None:
    """Whether the files of the last run showed exact figures (None: no earlier run)."""
    try:
        return bool(json.loads((out / "summary.json").read_text(encoding="utf-8")).get("exact_figures"))
    except (OSError, ValueError, AttributeError):
        return None


def write_outputs(out: Path, summary: ClassSummary, reports: list[dict[str, Any]], csv_bom: bool = False,
                  lang: str = "en") -> Path:
    """Write every derived file from ``reports`` (exact ones where ``summary.exact``), the overview and the
    gradebook's feedback in ``lang`` (each student's report in its own); returns the overview's path."""
    again = _previous_exact(out) is not summary.exact
    for report in reports:
        _student_html(out, report, again)
    reports = sorted(reports, key=lambda r: r["grading"]["student"])
    atomic_write(out / "summary.csv", summary_csv(summary, csv_bom), durable=False)
    atomic_write(out / "gradebook.csv", gradebook_csv(summary, lang), durable=False)
    atomic_write(out / "summary.json", json.dumps(summary.as_json(), indent=1) + "\n", durable=False)
    junit = environment("xml").get_template("class.junit.xml.j2")
    atomic_write(out / "junit.xml", junit.render(s=summary, reports=[displayable(r) for r in reports]),
                 durable=False)
    index = out / "index.html"
    page = environment("html").get_template("class.html.j2")
    atomic_write(index, page.render(s=summary, students=STUDENTS, report=STUDENT_HTML, lang=lang, **words(lang, "html")),
                 durable=False)
    return index
