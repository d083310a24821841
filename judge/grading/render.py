"""Write what an instructor opens, all rebuilt from stored results: each student's HTML report, and for the class
``summary.csv``, ``summary.json``, ``junit.xml`` and ``index.html`` (layout: :mod:`judge.grading`).

Student ids are file names, and file names may hold any bytes: every output shows them through
:mod:`judge.report.escape` (``summary.json`` keeps them exactly, as the key to each student's folder). The
CSV's cells are neutralised against spreadsheet formulas; ``csv_bom`` starts the file with a UTF-8 byte order
mark, which Excel needs to read UTF-8 (names with accents) but which a plain CSV reader keeps as part of the
first column's name, so it is off unless asked for (``judge grade --csv-bom``).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from judge.grading.store import RESULTS, STUDENTS, atomic_write
from judge.grading.summary import ClassSummary, Row
from judge.report.escape import csv_cell, displayable
from judge.report.render import environment, render

STUDENT_HTML = "report.html"
CSV_COLUMNS = ("student", "verdict", "passed", "total", "score", "max_score", "time_s", "source")
BOM = "\ufeff"


def _student_html(out: Path, report: dict[str, Any]) -> None:
    """Render a student's report unless the one on disk is already newer than the stored result."""
    folder = out / STUDENTS / report["grading"]["student"]
    html = folder / STUDENT_HTML
    try:
        if html.stat().st_mtime_ns >= (folder / RESULTS).stat().st_mtime_ns:
            return
    except OSError:
        pass
    atomic_write(html, render(report, "html"), durable=False)


def summary_csv(rows: list[Row], bom: bool = False) -> str:
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow([csv_cell(getattr(row, column)) for column in CSV_COLUMNS])
    return (BOM if bom else "") + text.getvalue()


def write_outputs(out: Path, summary: ClassSummary, reports: list[dict[str, Any]], csv_bom: bool = False) -> Path:
    """Write every derived file; returns the overview page's path."""
    for report in reports:
        _student_html(out, report)
    reports = sorted(reports, key=lambda r: r["grading"]["student"])
    atomic_write(out / "summary.csv", summary_csv(summary.rows, csv_bom), durable=False)
    atomic_write(out / "summary.json", json.dumps(summary.as_json(), indent=1) + "\n", durable=False)
    junit = environment("xml").get_template("class.junit.xml.j2")
    atomic_write(out / "junit.xml", junit.render(s=summary, reports=[displayable(r) for r in reports]),
                 durable=False)
    index = out / "index.html"
    page = environment("html").get_template("class.html.j2")
    atomic_write(index, page.render(s=summary, students=STUDENTS, report=STUDENT_HTML), durable=False)
    return index
