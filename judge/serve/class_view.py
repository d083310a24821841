"""The instructor's view of a graded folder (``judge serve --class OUT``): the overview ``judge grade`` wrote, and each
student's report beside the code it judged, under ``/class/``."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse

from judge.errors import BadInput
from judge.judging.intake import read_file
from judge.report.escape import url_path
from judge.report.render import html_fragment
from judge.serve.pages import Site, page, said


def _graded(request: Request) -> Path:
    site: Site = request.app.state.site
    if site.graded is None:
        raise HTTPException(404, said(request, "serve_no_class"))
    return site.graded


async def class_overview(request: Request) -> HTMLResponse:
    """The overview ``judge grade`` wrote, charts and all; its links lead to :func:`class_student`."""
    try:
        return HTMLResponse((_graded(request) / "index.html").read_text(encoding="utf-8"))
    except OSError:
        raise HTTPException(404, said(request, "serve_no_class")) from None


def _students(graded: Path) -> set[str]:
    try:
        summary = json.loads((graded / "summary.json").read_text(encoding="utf-8"))
        return {row["student"] for row in summary["students"]}
    except (OSError, ValueError, KeyError, TypeError):
        return set()


def _student(request: Request, graded: Path) -> str:
    """The student the URL names: one of the class summary's ids, never a path as sent. Matched on the URL's
    bytes (``url_path``), so an id that is not UTF-8 (a file name's raw bytes) finds its report too."""
    raw = request.scope.get("raw_path") or b"/"
    segment = raw.split(b"/")[-2].decode("ascii", "replace")  # /class/students/<segment>/report.html
    named = request.path_params["student"]
    for student in _students(graded):
        if student == named or url_path(student) == segment:
            return student
    raise HTTPException(404, said(request, "serve_no_student", student=named))


def _source(grading: dict[str, Any]) -> Path:
    """The judged file: its path in the class folder (an absolute one as results before it was relative kept)."""
    return Path(grading.get("class_folder", "")) / grading["source"]


def _judged_code(report: dict[str, Any]) -> str | None:
    """The code the report judged: the student's file read as untrusted input (no link followed, no FIFO, no
    device, capped), shown only if it still has the bytes whose sha256 the report holds; else None."""
    try:
        data = read_file(_source(report["grading"]))
        judged = report["submission"]["sha256"]
    except (BadInput, KeyError, TypeError):
        return None
    return data.decode("utf-8", "replace") if hashlib.sha256(data).hexdigest() == judged else None


async def class_student(request: Request) -> HTMLResponse:
    """A student's report (from their ``results.json``, or its exact copy with ``--exact-figures``) beside the
    code it judged."""
    graded, site = _graded(request), request.app.state.site
    student = _student(request, graded)
    folder = graded / "students" / student
    try:
        report = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise HTTPException(404, said(request, "serve_no_student", student=student)) from None
    if site.exact:
        try:
            exact = json.loads((folder / "instructor.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            exact = None
        report = exact if isinstance(exact, dict) and exact.get("grading") == report.get("grading") else report
    return page(request, "student.html.j2", student=student, report=html_fragment(report), code=_judged_code(report),
                 verdict=report.get("verdict"), source=report.get("grading", {}).get("source", ""))
