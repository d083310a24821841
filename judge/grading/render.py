"""Write what an instructor opens, all rebuilt from stored results: each student's HTML report, and for the class
``summary.csv``, ``summary.json``, ``junit.xml`` and ``index.html`` (layout: :mod:`judge.grading`)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from judge.grading.store import RESULTS, STUDENTS, atomic_write
from judge.grading.summary import ClassSummary, Row
from judge.report.render import environment, render

STUDENT_HTML = "report.html"
CSV_COLUMNS = ("student", "verdict", "passed", "total", "score", "max_score", "time_s", "source")


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


def _csv(rows: list[Row]) -> str:
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow([getattr(row, column) for column in CSV_COLUMNS])
    return text.getvalue()


def write_outputs(out: Path, summary: ClassSummary, reports: list[dict[str, Any]]) -> Path:
    """Write every derived file; returns the overview page's path."""
    for report in reports:
        _student_html(out, report)
    env = environment(False)
    reports = sorted(reports, key=lambda r: r["grading"]["student"])
    atomic_write(out / "summary.csv", _csv(summary.rows), durable=False)
    atomic_write(out / "summary.json", json.dumps(summary.as_json(), indent=1) + "\n", durable=False)
    atomic_write(out / "junit.xml", env.get_template("class.junit.xml.j2").render(s=summary, reports=reports),
                 durable=False)
    index = out / "index.html"
    atomic_write(index, env.get_template("class.html.j2").render(s=summary, students=STUDENTS,
                                                                 report=STUDENT_HTML), durable=False)
    return index
