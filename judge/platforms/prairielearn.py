"""PrairieLearn's ``/grade/results/results.json`` from the judge's report (``PrairieLearn/PrairieLearn``
``docs/externalGrading.md``), and the question files that lead there.

``score`` is the share of the points earned, in [0, 1], with the points on the hidden cases as on Gradescope
(:func:`judge.platforms.config.case_points`); ``tests[]`` holds one entry per case with ``points`` and
``max_points``, its ``message`` the judge's one line about it (for a hidden case: verdict, method, limits,
never its data), and ``output`` the text report of the sample cases. A submission that never compiled (a
compile error and no case accepted: a syntax error, a failed import, no ``Solution``) is ``gradable: false``
with the reason in ``format_errors``, so it costs the student no attempt; so is one the judge itself failed on. A result is kept under PrairieLearn's
1 MB: the longest text goes first.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from judge import messages
from judge.platforms.config import Exported, case_points, samples_only
from judge.report.escape import visible
from judge.report.render import render

LIMIT_BYTES = 1_000_000
QUESTION_NAMESPACE = uuid.UUID("0b8f1a2c-5d3e-4f60-9a7b-1c2d3e4f5a6b")
"""question uuids are ``uuid5`` of this and the slug: stable across exports, so a re-export updates the question"""
SOLUTION_FILE = "solution.py"
"""the file name of the question's editor, and so of the student's file in ``/grade/student``"""


def question_uuid(slug: str) -> str:
    return str(uuid.uuid5(QUESTION_NAMESPACE, slug))


def _never_compiled(report: dict[str, Any]) -> bool:
    return report["verdict"] == "compile_error" and report["passed"] == 0


def _reason(report: dict[str, Any]) -> str:
    """Why the submission never compiled, as PrairieLearn shows a format error: the exception's message is the
    submission's own text, so what acts on a reader is escaped (:func:`judge.report.escape.visible`)."""
    error = report["judge"].get("startup_error") or {}
    return visible(f"{error.get('exc', 'compile_error')}: {error.get('msg', report['output'])}")


def results(exported: Exported, report: dict[str, Any]) -> dict[str, Any]:
    points = case_points(exported, report)
    possible = sum(p for _, p in points)
    tests = [{"name": t["name"], "description": t["extra_data"].get("title", ""), "points": round(earned, 6),
              "max_points": round(most, 6), "message": t["output"]}
             for t, (earned, most) in zip(report["tests"], points)]
    found: dict[str, Any] = {
        "gradable": not _never_compiled(report),
        "score": round(sum(e for e, _ in points) / possible, 6) if possible else 0.0,
        "message": messages.say("prairielearn_message", passed=sum(t["points"] > 0 for t in tests),
                                hidden=sum(t["max_points"] > 0 for t in tests)),
        "output": render(samples_only(report), "text"),
        "tests": tests,
    }
    if not found["gradable"]:
        found["format_errors"] = [_reason(report)]
    if report["verdict"] == "internal_error":  # the judge's fault: the attempt must not count
        found.update(gradable=False, message=messages.say("prairielearn_internal"),
                     format_errors=[visible(report["judge"]["judge_error"] or report["output"])])
    return _within_limit(found)


def _within_limit(found: dict[str, Any]) -> dict[str, Any]:
    if len(json.dumps(found)) > LIMIT_BYTES:
        found = {**found, "output": messages.say("prairielearn_output_cut")}
    if len(json.dumps(found)) > LIMIT_BYTES:
        found = {**found, "tests": [{**t, "message": t["message"][:200]} for t in found["tests"]]}
    return found


def unfinished(done: int, total: int) -> dict[str, Any]:
    """What ``results.json`` holds while the judge runs: not gradable, so a judge that never finishes costs the
    student no attempt."""
    text = messages.say("autograde_unfinished", done=done, total=total)
    return {"gradable": False, "format_errors": [text], "message": text, "tests": []}


def refused(reason: str) -> dict[str, Any]:
    return {"gradable": False, "format_errors": [reason], "message": reason, "tests": []}


def info(exported: Exported, problem: Any, image: str, entrypoint: list[str], timeout_s: int) -> dict[str, Any]:
    """The question's ``info.json`` (``apps/prairielearn/src/schemas/schemas/infoQuestion.json``)."""
    return {
        "uuid": question_uuid(exported.slug),
        "title": problem.title,
        "topic": "PyTorch training diagnostics",
        "tags": [problem.meta["difficulty"], *problem.meta.get("tags", [])],
        "type": "v3",
        "singleVariant": True,
        "gradingMethod": "External",
        "externalGradingOptions": {
            "enabled": True,
            "image": image,
            "entrypoint": entrypoint,
            "timeout": timeout_s,
            "enableNetworking": False,
        },
    }
