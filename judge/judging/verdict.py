"""Verdicts: one vocabulary, and the small predicates that turn what happened into one of them."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from judge.worker.runner import Outcome


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


MEMORY_ERROR_TEXT = ("can't allocate memory", "out of memory", "OutOfMemoryError")


def _is_memory_error(error: dict[str, Any]) -> bool:
    return error.get("exc") in ("MemoryError", "OutOfMemoryError") or any(
        text in str(error.get("msg", "")) for text in MEMORY_ERROR_TEXT)


def from_ending(outcome: Outcome) -> Verdict:
    """The verdict of a request the worker did not answer."""
    return {
        "cpu": Verdict.TIME_LIMIT_EXCEEDED,
        "wall": Verdict.TIME_LIMIT_EXCEEDED,
        "memory": Verdict.MEMORY_LIMIT_EXCEEDED,
        "threads": Verdict.RUNTIME_ERROR,
        "disk": Verdict.RUNTIME_ERROR,
        "too_large": Verdict.OUTPUT_FORMAT_ERROR,
        "exit": Verdict.RUNTIME_ERROR,
    }[outcome.ended]


def from_error(error: dict[str, Any]) -> Verdict:
    """The verdict of an exception the submission raised."""
    return Verdict.MEMORY_LIMIT_EXCEEDED if _is_memory_error(error) else Verdict.RUNTIME_ERROR


def overall(verdicts: list[Verdict | None]) -> Verdict:
    """The first failing case in order decides; cases that were not run (None) do not."""
    return next((v for v in verdicts if v not in (None, Verdict.ACCEPTED)), Verdict.ACCEPTED)
