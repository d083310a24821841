"""Verdicts: one vocabulary, one table of how each is shown, and the small predicates that turn what happened into
one of them.

:data:`VERDICTS` is the only place a verdict's short name, colour class and severity are written: the text
colours, the HTML reports, the class page, the site's stylesheet (:mod:`judge.report.style`) and the progress
line all read it. :data:`ENDINGS` is the only place an :class:`judge.worker.runner.Ending` becomes a verdict and a
message key (:mod:`judge.messages`), as CMS's ``human_evaluation_message`` maps its exit statuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judge.compat import StrEnum
from judge.worker.runner import Ending


class Verdict(StrEnum):
    ACCEPTED = "accepted"
    WRONG_ANSWER = "wrong_answer"
    TIME_LIMIT_EXCEEDED = "time_limit_exceeded"
    MEMORY_LIMIT_EXCEEDED = "memory_limit_exceeded"
    RUNTIME_ERROR = "runtime_error"
    COMPILE_ERROR = "compile_error"
    """syntax error, import failure, no ``Solution`` class or a missing method"""
    OUTPUT_FORMAT_ERROR = "output_format_error"
    """a value that cannot be an answer, or a worker that broke the protocol"""
    INTERNAL_ERROR = "internal_error"
    """the judge's fault, never blamed on the submission"""
    RAN = "ran"
    """every call returned, and nothing was compared: a learner's own case without expected values"""


class Tone(StrEnum):
    """A verdict's colour class: verdicts of one tone look alike everywhere (:mod:`judge.report.style`)."""

    PASSED = "passed"
    WRONG = "wrong"
    LIMIT = "limit"
    BROKEN = "broken"
    JUDGE = "judge"
    NEUTRAL = "neutral"


class Severity(StrEnum):
    """Whose the verdict is: it decides exit codes and whether a stored result is judged again."""

    PASS = "pass"
    FAIL = "fail"
    """the submission's"""
    JUDGE_FAULT = "judge_fault"
    """the judge's own failure: never an answer, judged again next time"""


@dataclass(frozen=True)
class Look:
    short: str
    """for the progress line and other places where the full name does not fit"""
    tone: Tone
    severity: Severity


VERDICTS: dict[Verdict, Look] = {
    Verdict.ACCEPTED: Look("AC", Tone.PASSED, Severity.PASS),
    Verdict.WRONG_ANSWER: Look("WA", Tone.WRONG, Severity.FAIL),
    Verdict.TIME_LIMIT_EXCEEDED: Look("TLE", Tone.LIMIT, Severity.FAIL),
    Verdict.MEMORY_LIMIT_EXCEEDED: Look("MLE", Tone.LIMIT, Severity.FAIL),
    Verdict.RUNTIME_ERROR: Look("RE", Tone.BROKEN, Severity.FAIL),
    Verdict.COMPILE_ERROR: Look("CE", Tone.BROKEN, Severity.FAIL),
    Verdict.OUTPUT_FORMAT_ERROR: Look("OFE", Tone.WRONG, Severity.FAIL),
    Verdict.INTERNAL_ERROR: Look("IE", Tone.JUDGE, Severity.JUDGE_FAULT),
    Verdict.RAN: Look("RAN", Tone.NEUTRAL, Severity.PASS),
}


def look(verdict: str) -> Look | None:
    """The table's row for a verdict named in a report; None for anything else (``not run``, a hint)."""
    try:
        return VERDICTS[Verdict(verdict)]
    except ValueError:
        return None


@dataclass(frozen=True)
class EndingRule:
    verdict: Verdict
    """the verdict of a call that ended so"""
    message: str
    """the judge's note for it (a message key; its fields are :func:`judge.judging.session.ending_fields`)"""
    at_import: str
    """the note when the worker ended so while importing the submission (a compile error)"""


ENDINGS: dict[Ending, EndingRule] = {
    Ending.CPU: EndingRule(Verdict.TIME_LIMIT_EXCEEDED, "ended_cpu", "import_slow"),
    Ending.WALL: EndingRule(Verdict.TIME_LIMIT_EXCEEDED, "ended_wall", "import_slow"),
    Ending.MEMORY: EndingRule(Verdict.MEMORY_LIMIT_EXCEEDED, "ended_memory", "import_memory"),
    Ending.THREADS: EndingRule(Verdict.RUNTIME_ERROR, "ended_threads", "ended_threads"),
    Ending.DISK: EndingRule(Verdict.RUNTIME_ERROR, "ended_disk", "ended_disk"),
    Ending.TOO_LARGE: EndingRule(Verdict.OUTPUT_FORMAT_ERROR, "ended_too_large", "import_bad_reply"),
    Ending.EXIT: EndingRule(Verdict.RUNTIME_ERROR, "ended_exit", "import_exit"),
    Ending.LATE: EndingRule(Verdict.TIME_LIMIT_EXCEEDED, "ended_late", "import_slow"),
}
OOM_KILLED = "ended_memory_cgroup"
"""the note of :attr:`Ending.MEMORY` when the kernel, not the parent's poll, ended the worker"""
LIMIT_ENDINGS = frozenset(e for e, rule in ENDINGS.items()
                          if rule.verdict in (Verdict.TIME_LIMIT_EXCEEDED, Verdict.MEMORY_LIMIT_EXCEEDED))
"""endings whose note is the judge's own words about its limits"""
HIDDEN_LIMIT_NOTES: dict[Verdict, str] = {Verdict.TIME_LIMIT_EXCEEDED: "hidden_limit_time",
                                          Verdict.MEMORY_LIMIT_EXCEEDED: "hidden_limit_memory"}
"""a hidden case's note on a limit it hit, by verdict (a message key; its fields ``cpu_limit_s`` and
``memory_limit_mib`` are the case's limits): the limit alone, never a figure the submission could steer, such as
the memory it had reached when it was stopped"""

MEMORY_ERROR_TEXT = ("can't allocate memory", "out of memory", "OutOfMemoryError")


def _is_memory_error(error: dict[str, Any]) -> bool:
    return error.get("exc") in ("MemoryError", "OutOfMemoryError") or any(
        text in str(error.get("msg", "")) for text in MEMORY_ERROR_TEXT)


def from_ending(ending: Ending) -> Verdict:
    """The verdict of a request the worker did not answer within its limits."""
    return ENDINGS[ending].verdict


def from_error(error: dict[str, Any]) -> Verdict:
    """The verdict of an exception the submission raised."""
    return Verdict.MEMORY_LIMIT_EXCEEDED if _is_memory_error(error) else Verdict.RUNTIME_ERROR


def overall(verdicts: list[Verdict | None]) -> Verdict:
    """The first failing case in order decides. A case that was not run (None) was left out because the
    submission's time ran out (:mod:`judge.judging.allowance`), so where no case failed it is a time limit: a
    submission is never accepted on the cases it happened to reach (a red team's 128 slept just inside each call's
    limit until the budget was spent, and was accepted with twelve hidden cases unrun)."""
    failing = next((v for v in verdicts if v not in (None, Verdict.ACCEPTED)), None)
    if failing is not None:
        return failing
    return Verdict.TIME_LIMIT_EXCEEDED if None in verdicts else Verdict.ACCEPTED
