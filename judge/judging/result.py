"""The trust boundary: turn what a worker sent back into a checked reply, or say that it is not one.

Once the submission is imported, every byte on the response pipe may be forged: the submission runs in the
worker's process and can write to the pipe, patch ``json`` or the encoder, or die half-way through a line.
So a reply is accepted only when it is a JSON object whose ``type`` is ``result`` or ``error`` and whose ``id``
is exactly the integer the parent asked with (``True == 1`` in Python, so the type is checked too). A value
nested deeper than ``MAX_DEPTH`` is refused with an iterative walk, so neither this check nor the comparison,
the report or the JSON encoder that come after it can be driven into a ``RecursionError``. Error fields are
kept only when they are strings, and cut to ``MESSAGE_CHARS``: ``str()`` is never called on a hostile object.
JSON can carry a lone surrogate (``"\\ud800"``), which no UTF-8 file, terminal or page can hold: every string
of a reply, dict keys included, has them replaced by U+FFFD here, so nothing after this point meets one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from judge.worker import protocol
from judge.worker.protocol import ENCODE_DEPTH, ERROR_FIELDS, MESSAGE_CHARS, SHAPE_ERRORS

MAX_DEPTH = 2 * ENCODE_DEPTH
"""the worker encodes at most ``ENCODE_DEPTH`` levels; anything deeper is forged"""
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Reply:
    kind: Literal["result", "error"]
    value: Any = None
    """the returned value, for ``result`` (plain JSON: dict, list, str, int, float, bool or None)"""
    error: dict[str, str] | None = None
    """``exc``, ``msg`` and ``trace``, for ``error``"""


def depth(value: Any) -> int:
    """How deeply lists and dicts nest in ``value`` (0 for a scalar), without recursion."""
    deepest, todo = 0, [(value, 0)]
    while todo:
        item, level = todo.pop()
        if type(item) is list:
            children = item
        elif type(item) is dict:
            children = list(item.values())
        else:
            continue
        deepest = max(deepest, level + 1)
        if deepest > MAX_DEPTH:
            return deepest
        todo.extend((child, level + 1) for child in children)
    return deepest


def clean_text(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD, as a decoder replaces bytes that are not UTF-8."""
    return _SURROGATE.sub("\ufffd", text)


def clean_value(value: Any) -> Any:
    """A copy of a decoded value (depth already bounded) whose strings and dict keys hold no lone surrogate."""
    if type(value) is str:
        return clean_text(value)
    if type(value) is list:
        return [clean_value(item) for item in value]
    if type(value) is dict:
        return {clean_text(k): clean_value(v) for k, v in value.items()}
    return value


def error_fields(message: dict[str, Any]) -> dict[str, str]:
    """The error's ``exc``, ``msg`` and ``trace`` as short strings; a field that is not a string becomes ``""``."""
    return {key: clean_text(message[key][:MESSAGE_CHARS]) if type(message.get(key)) is str else ""
            for key in ERROR_FIELDS}


def not_a_solution(message: dict[str, Any], methods: list[str]) -> tuple[str, dict[str, Any]] | None:
    """The key and fields of an ``import_error`` that says the file is not a solution
    (:data:`judge.worker.protocol.SHAPE_ERRORS`), when they are what a worker sends: a known key, exactly its
    fields, the missing methods some of the problem's (in its order), the ones found names whose joined text fits
    in ``MESSAGE_CHARS`` (lone surrogates replaced); else None."""
    key = message.get("key")
    if key not in SHAPE_ERRORS or sorted(message) != sorted({"type", "key", *SHAPE_ERRORS[key]}):
        return None
    if key == "import_no_solution_class":
        return key, {}
    missing, found = message["missing"], message["found"]
    if type(missing) is not list or not missing or missing != [m for m in methods if m in missing]:
        return None
    if type(found) is not list or not all(type(n) is str for n in found) or len(", ".join(found)) > MESSAGE_CHARS:
        return None
    return key, {"missing": missing, "found": [clean_text(n) for n in found]}


def parse(message: Any, call_id: int) -> Reply | None:
    """The reply to call ``call_id``, or None when ``message`` is not a well-formed one (a protocol violation)."""
    if type(message) is not dict or type(message.get("id")) is not int or message["id"] != call_id:
        return None
    if message.get("type") == protocol.Reply.ERROR:
        return Reply("error", error=error_fields(message))
    if message.get("type") != protocol.Reply.RESULT or "value" not in message or depth(message["value"]) > MAX_DEPTH:
        return None
    return Reply("result", value=clean_value(message["value"]))
