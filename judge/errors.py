"""The judge's own exceptions. Each carries a message key from :mod:`judge.messages`, never prose."""

from __future__ import annotations

from typing import Any

from judge import messages


class JudgeError(Exception):
    """Base: a key into the message catalogue plus the fields its template needs."""

    exit_code = 3

    def __init__(self, key: str, **fields: Any):
        self.key = key
        self.fields = fields
        super().__init__(messages.say(key, **fields))


class BadInput(JudgeError):
    """The user gave something the judge cannot use (unknown problem, unreadable file, bad case file)."""

    exit_code = 2


class InternalError(JudgeError):
    """The judge's own fault, never blamed on a submission."""

    exit_code = 3
