"""The judge's own exceptions. Each carries a message key from :mod:`judge.messages`, never prose."""

from __future__ import annotations

from typing import Any

from judge import messages

EXIT_OK, EXIT_NOT_ACCEPTED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
"""``judge``'s exit status: accepted (or the command succeeded), not accepted (or a check failed), bad usage or
bad input, the judge's own failure"""
EXIT_INTERRUPTED = 130
"""Ctrl-C, as a shell reports SIGINT"""


class JudgeError(Exception):
    """Base: a key into the message catalogue plus the fields its template needs."""

    exit_code = EXIT_INTERNAL

    def __init__(self, key: str, **fields: Any):
        self.key = key
        self.fields = fields
        super().__init__(messages.say(key, **fields))

    def said_in(self, lang: str) -> str:
        """The message in ``lang`` (:func:`judge.messages.say_in`: English where it has no translation)."""
        return messages.say_in(lang, self.key, **self.fields)

    def in_language(self, lang: str) -> JudgeError:
        """The same error, its message said in ``lang`` (what ``check(..., lang="zh")`` raises)."""
        again = _remade(type(self), self.key, self.fields)
        again.args = (self.said_in(lang),)
        return again

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class, key and fields (a process that checks problems side by side sends it on)."""
        return _remade, (type(self), self.key, self.fields)


def _remade(kind: type[JudgeError], key: str, fields: dict[str, Any]) -> JudgeError:
    return kind(key, **fields)


class BadInput(JudgeError):
    """The user gave something the judge cannot use (unknown problem, unreadable file, bad case file)."""

    exit_code = EXIT_USAGE


class InternalError(JudgeError):
    """The judge's own fault, never blamed on a submission."""

    exit_code = EXIT_INTERNAL
