"""Stored results checked when read, untrusted: ``judge merge`` takes a shard's files only when they have the
shape ``judge grade`` writes, and its figures only when they follow from its own per-case records.

First the shape: a summary names its problem, and each student by one file name (``../x`` would have merge read
or write outside the folders it was given); a stored result belongs to the student whose row names it, and holds
every field the summary and the class view read, of the kind they read it as (:func:`summary_fault`,
:func:`report_fault`). Then the figures:

For each student a shard lists, the stored report's overall verdict, passed count and score are recomputed from
its per-case verdicts (the first failing case decides, as when it was judged), each case's status and score from
its verdict, and the shard's summary row (verdict, passed, total, points) from the report; the submission's
stored hash is compared with the bytes of the stored source, where the class folder is still there to read it.
A shard that disagrees with itself anywhere is refused with one line naming the student and the figure.

What this does not catch: an editor who changes a case's verdict *and* every figure that follows from it (the
summary row, the overall verdict), consistently. Results are not signed, because the instructor owns the output
folder and the class folder alike: whoever can rewrite them can also re-run ``judge grade`` with any submission,
so a signature kept beside them would prove nothing more. What this catches is the edit that forgets a figure,
and a stored source that is no longer the file that was judged.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

from judge import messages
from judge.errors import BadInput
from judge.judging.intake import read_file
from judge.judging.verdict import Verdict, overall
from judge.report.points import earned


def _verdict(value: Any) -> Verdict | None:
    try:
        return Verdict(value) if value is not None else None
    except ValueError:
        return None


def _disagreement(report: dict[str, Any], row: dict[str, Any], class_folder: Path | None) -> messages.Said | None:
    """The first stored figure that does not follow from the report's own records, in words (said in the language
    of the error it is a field of); None if all do."""
    tests = report.get("tests") if isinstance(report.get("tests"), list) else []
    verdicts = [_verdict(t.get("extra_data", {}).get("verdict")) for t in tests]
    for test, verdict in zip(tests, verdicts):
        status = "passed" if verdict is Verdict.ACCEPTED else "failed"
        if test.get("status") != status or test.get("score") != (1.0 if status == "passed" else 0.0):
            return messages.Said("audit_case", case=test.get("extra_data", {}).get("case"), status=test.get("status"),
                                 verdict=verdict.value if verdict else messages.Said("verdict_not_run"))
    found = Verdict.INTERNAL_ERROR if report.get("judge", {}).get("judge_error") else overall(verdicts)
    passed = sum(v is Verdict.ACCEPTED for v in verdicts)
    checks = [("verdict", report.get("verdict"), found.value), ("passed", report.get("passed"), passed),
              ("score", report.get("score"), float(passed)), ("total", report.get("total"), len(tests)),
              ("summary verdict", row.get("verdict"), found.value), ("summary passed", row.get("passed"), passed),
              ("summary total", row.get("total"), len(tests))]
    if isinstance(row.get("max_points"), (int, float)):
        checks.append(("summary points", row.get("points"), round(earned(tests, row["max_points"]), 4)))
    for name, stored, recomputed in checks:
        if stored != recomputed:
            return messages.Said("audit_figure", figure=name, stored=stored, found=recomputed)
    return _source_disagreement(report, class_folder)


def _source_disagreement(report: dict[str, Any], class_folder: Path | None) -> messages.Said | None:
    """The stored source, where it can be read, must be the bytes the report's hash names (read as a submission
    is: a FIFO or a device named there is not the file that was judged, and is never waited on)."""
    judged = report.get("submission", {}).get("sha256")
    source = report["grading"]["source"]
    if not judged or class_folder is None:
        return None
    path = Path(source) if Path(source).is_absolute() else class_folder / source
    try:
        data = read_file(path, follow=True)
    except BadInput as refused:
        if refused.key in ("file_missing", "file_unreadable"):
            return None  # merged on a machine without the class folder: nothing to compare with
        return messages.Said("audit_source", source=source)
    if hashlib.sha256(data).hexdigest() != judged:
        return messages.Said("audit_source", source=source)
    return None


def one_name(student: Any) -> bool:
    """Whether ``student`` is a name ``judge grade`` gives: one file name, so it names a folder of its own."""
    return isinstance(student, str) and student not in ("", ".", "..") and "/" not in student and "\0" not in student


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _path_text(value: Any) -> bool:
    """whether ``value`` can be a path the judge wrote: a string with no NUL (which no file name holds)"""
    return isinstance(value, str) and "\0" not in value


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def summary_fault(meta: dict[str, Any]) -> str | None:
    """The first field of a stored ``summary.json`` that is not as ``judge grade`` writes it (None: all are)."""
    problem, students = meta.get("problem"), meta.get("students")
    if not (isinstance(problem, dict) and all(isinstance(problem.get(key), str) for key in ("slug", "title"))):
        return "problem"
    if not isinstance(students, list):
        return "students"
    for index, row in enumerate(students):
        if not (isinstance(row, dict) and one_name(row.get("student"))):
            return f"students[{index}].student"
    if not isinstance(meta.get("skipped", []), list):
        return "skipped"
    if meta.get("incomplete") and not _count(meta["incomplete"]):
        return "incomplete"
    if meta.get("points") is not None and not _number(meta["points"]):
        return "points"
    return None


def _case_fault(test: Any) -> bool:
    extra = test.get("extra_data") if isinstance(test, dict) else None
    return not (isinstance(extra, dict) and isinstance(extra.get("case"), str) and isinstance(extra.get("hidden"), bool)
                and isinstance(extra.get("verdict"), (str, type(None))) and isinstance(extra.get("calls", []), list))


def report_fault(report: dict[str, Any], student: str) -> str | None:
    """The first field of ``student``'s stored result that is not as ``judge grade`` writes it (None: all are)."""
    grading = report.get("grading")
    if not isinstance(grading, dict) or grading.get("student") != student:
        return "grading.student"
    if not _path_text(grading.get("source")):
        return "grading.source"
    if not _path_text(grading.get("class_folder", "")):  # older results have none
        return "grading.class_folder"
    for name in ("judge", "submission"):
        if not isinstance(report.get(name, {}), dict):
            return name
    if not isinstance(report.get("verdict"), str):
        return "verdict"
    for name in ("passed", "total"):
        if not _count(report.get(name)):
            return name
    if not _number(report.get("execution_time")):
        return "execution_time"
    tests = report.get("tests")
    if not isinstance(tests, list):
        return "tests"
    return next((f"tests[{index}]" for index, test in enumerate(tests) if _case_fault(test)), None)


def check_stored(report: dict[str, Any], row: dict[str, Any], folder: Path) -> None:
    """Refuse (:class:`BadInput`) a shard ``folder`` whose stored result ``report`` or summary ``row`` of one
    student disagrees with the report's per-case records or with its stored source."""
    class_folder = report.get("grading", {}).get("class_folder")
    why = _disagreement(report, row, Path(class_folder) if isinstance(class_folder, str) else None)
    if why:
        raise BadInput("merge_tampered", path=folder, student=row.get("student"), why=why)
