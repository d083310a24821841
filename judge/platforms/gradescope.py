"""Gradescope's ``results.json`` from the judge's reports (``gradescope/autograder_samples`` ``docs/specs.md``).

One test per case, numbered ``<problem>.<case>`` when the autograder holds several problems. Sample cases are
``visible`` and worth 0 points; hidden cases carry the points (:func:`judge.platforms.config.case_points`) and the
export's visibility, and say only what the judge's report says of a hidden case (verdict, method, coarse figures,
limits). The top-level ``output``, which students always see, is the text report of the sample cases alone, with a
line on when the hidden cases' results appear: nothing in it depends on a hidden case. ``stdout`` (the judge's
log) stays with the instructor.

Optional, from ``submission_metadata.json`` (``docs/submission_metadata.md``): a cooldown keeps the results of the
last judged submission, with a note, for a submission made sooner than ``cooldown_minutes`` after it (measured
from the submission times Gradescope records, so a regrade gives the same answer; Gradescope sends the results of
the latest previous submission only, so a held submission's results carry the time of the last judged one); a
leaderboard
(``docs/leaderboards.md``) ranks hidden cases passed and total CPU time.
"""

from __future__ import annotations

import datetime
from typing import Any

from judge import messages
from judge.platforms.config import Export, Exported, case_points, samples_only
from judge.report.render import render

EXTRA = ("case", "verdict", "cpu_time_s", "peak_memory_mb", "time_limit_s", "memory_limit_mb")
"""what a test's ``extra_data`` keeps of the report's (instructors see it; nothing of a hidden case's data)"""


def _test(test: dict[str, Any], points: tuple[float, float], visibility: str, problem: tuple[int, str] | None) -> dict:
    extra = test["extra_data"]
    hidden = extra["hidden"]
    limits = [c["limit"] for c in extra["calls"] if c.get("limit")]
    return {
        "name": (f"{problem[1]}: " if problem else "") + test["name"],
        "number": f"{problem[0]}.{test['number']}" if problem else test["number"],
        "score": round(points[0], 6),
        "max_score": round(points[1], 6),
        "status": test["status"],
        "output": "\n".join([test["output"], *limits]),
        "output_format": "text",
        "tags": ["hidden" if hidden else "sample", *([problem[1]] if problem else [])],
        "visibility": visibility if hidden else "visible",
        "extra_data": {key: extra[key] for key in EXTRA},
    }


def _summary(exported: Exported, report: dict[str, Any], visibility: str) -> str:
    """What a student sees at once: first what was judged (the hidden cases' number and worth, and when their
    results show, never the results), then the sample cases' report."""
    hidden = sum(t["extra_data"]["hidden"] for t in report["tests"])
    judged = [messages.say("gradescope_judged", samples=len(report["tests"]) - hidden, hidden=hidden,
                           points=exported.points, when=messages.say(f"gradescope_when_{visibility}"))] if hidden else []
    return "\n\n".join([*judged, render(samples_only(report), "text").rstrip()])


def results(export: Export, judged: list[tuple[Exported, dict[str, Any]]]) -> dict[str, Any]:
    """The ``results.json`` of one submission: ``judged`` holds each exported problem with its report."""
    several = len(judged) > 1
    tests = [_test(test, points, export.hidden_visibility, (n, exported.slug) if several else None)
             for n, (exported, report) in enumerate(judged, 1)
             for test, points in zip(report["tests"], case_points(exported, report))]
    first = judged[0][1]["judge"]
    found = {
        "score": round(sum(t["score"] for t in tests), 6),
        "execution_time": round(sum(report["execution_time"] for _, report in judged), 3),
        "output": "\n\n".join(_summary(exported, report, export.hidden_visibility) for exported, report in judged),
        "output_format": "text",
        "test_output_format": "text",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "extra_data": {"judged": True, "judge": first["version"], "torch": first["torch"],
                       "security_level": first["security_level"]},
        "tests": tests,
    }
    if export.leaderboard:
        found["leaderboard"] = [
            {"name": "hidden cases passed", "value": sum(t["status"] == "passed" for t in tests if "hidden" in t["tags"])},
            {"name": "CPU time (s)", "value": round(sum(t["extra_data"]["cpu_time_s"] or 0.0 for t in tests), 4),
             "order": "asc"},
        ]
    return found


def unfinished(done: int, total: int) -> dict[str, Any]:
    """What ``results.json`` holds while the judge runs: what a student sees if it never finishes."""
    return {"score": 0.0, "output": messages.say("autograde_unfinished", done=done, total=total),
            "output_format": "text", "visibility": "visible", "stdout_visibility": "hidden",
            "extra_data": {"judged": False, "finished": False}, "tests": []}


def refused(reason: str) -> dict[str, Any]:
    """No judging here at all (the sandbox cannot keep hidden cases secret): the instructor must act."""
    return {"score": 0.0, "output": reason, "output_format": "text", "stdout_visibility": "hidden",
            "extra_data": {"judged": False}, "tests": []}


def _time(text: Any) -> datetime.datetime | None:
    try:
        return datetime.datetime.fromisoformat(str(text))
    except ValueError:
        return None


def _last_judged(previous: list[Any]) -> tuple[datetime.datetime, dict[str, Any]] | None:
    """When the last judged submission was made, and the results to keep, from the latest previous submission that
    carries results: Gradescope sends results for the latest one only (``docs/submission_metadata.md``), so a held
    submission's results carry the time of the last judged one forward (``extra_data.last_judged_at``)."""
    carrying = [(_time(p.get("submission_time")), p["results"]) for p in previous
                if isinstance(p, dict) and isinstance(p.get("results"), dict) and _time(p.get("submission_time"))]
    if not carrying:
        return None
    try:
        made, kept = max(carrying, key=lambda found: found[0])
    except TypeError:  # times with and without a UTC offset cannot be compared: judge it
        return None
    extra = kept.get("extra_data") if isinstance(kept.get("extra_data"), dict) else {}
    if extra.get("judged") is True:
        return made, kept
    carried = _time(extra.get("last_judged_at"))
    return (carried, kept) if carried is not None else None


def cooled_down(export: Export, metadata: dict[str, Any] | None) -> dict[str, Any] | None:
    """The results to keep instead of judging this submission, or None to judge it."""
    if not export.cooldown_minutes or not isinstance(metadata, dict):
        return None
    created = _time(metadata.get("created_at"))
    last = _last_judged(metadata.get("previous_submissions") or [])
    if created is None or last is None:
        return None
    try:
        wait = last[0] + datetime.timedelta(minutes=export.cooldown_minutes) - created
    except TypeError:
        return None
    if wait <= datetime.timedelta(0):
        return None
    kept = last[1]
    extra = kept.get("extra_data") if isinstance(kept.get("extra_data"), dict) else {}
    output = extra.get("judged_output", kept.get("output", ""))
    note = messages.say("gradescope_cooldown", minutes=export.cooldown_minutes, wait=wait.total_seconds() / 60)
    return {**kept, "output": note + "\n\n" + str(output),
            "extra_data": {**extra, "judged": False, "last_judged_at": last[0].isoformat(), "judged_output": output}}
