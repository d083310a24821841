"""The wire format between the judge and a worker, both halves: every message's shape, every limit of the wire.

One JSON object per line on dedicated pipes (never stdout, never pickle); a request may be followed by its
``hidden`` values as raw bytes (:func:`encode_request`, read back by :class:`Requests`).

* a *checker* gets one ``verify`` (every case's object specifications), builds each case, answers ``checksums``
  and ends. It never imports the submission: the cases it held die with it, before any submission code runs in
  a worker of the same judge (:meth:`judge.judging.session.Session._start`).
* a *worker* gets ``setup`` (device, method names: nothing of any case), locks itself down
  (:func:`judge.worker.main.lock_down`: no capabilities, and when told to, Landlock and the seccomp filter; a
  layer that fails to load stops the worker here) and answers ``locked``; it imports the submission and answers
  ``ready`` or ``import_error`` (an exception's fields, or a message key where the file is not a solution:
  :data:`SHAPE_ERRORS`); then, for each ``call`` (one call's method, arguments and the specifications of
  the objects those name, never another call's: :meth:`judge.package.cases.Case.call_request`), it builds those
  objects afresh, forgets the request, calls the method and answers ``result`` (the encoded value) or ``error``
  (exception type, message, traceback tail), with the call's ``id``.

The parent's half is :func:`setup`, :func:`verify`, :func:`call`, :func:`encode_request` and :func:`decode`; the
worker's is :class:`Requests`, :func:`send` and the replies' builders. Everything a worker sends after the
import may be forged (the submission runs in its process), so the parent trusts no reply's shape:
:mod:`judge.judging.result` checks each one.
"""

from __future__ import annotations

import json
import struct
import sys
from typing import Any, BinaryIO

from judge.compat import StrEnum

ENCODE_DEPTH = 32
"""how deeply a worker encodes a returned value's lists and dicts (deeper: :data:`UNSUPPORTED`)"""
MESSAGE_CHARS = 2000
"""the most characters of an error's message, and of its traceback, that travel (and that the parent keeps)"""
ERROR_FIELDS = ("exc", "msg", "trace")
REPLACED = "ReplacedJudgeCode"
"""the ``exc`` of a call that returned with a judge-built object running other code than it was built with
(:func:`judge.package.kinds.tampered`); the parent says so in its own words"""
"""an error's fields: the exception's type name, its message, the traceback tail"""
TYPE_CHARS = 60
"""the most characters of an exception's type name that travel (and of an unsupported object's type name)"""
UNSUPPORTED = "$unsupported"
"""the marker of a returned value a worker cannot send as data: ``{"$unsupported": {"key": K, ...fields}}``, a
message key of :data:`UNSUPPORTED_FIELDS` and its fields, which the parent says in the report's language (the
worker never reads the catalogue). The parent checks both (:func:`judge.judging.compare.described_unsupported`): the marker is
the submission's to forge, as every value is"""
UNSUPPORTED_FIELDS: dict[str, tuple[str, ...]] = {
    "unsupported_tensor": ("shape",), "object_of_type": ("name",), "unsupported_deep": ()}
"""each key an unsupported value may be described by, and its fields: a tensor's shape (a list of sizes), an
object's type name (at most :data:`TYPE_CHARS` characters), or nothing for a value nested deeper than
:data:`ENCODE_DEPTH`"""
SHAPE_DIMS = 64
"""the most dimensions of a tensor's shape a marker may hold (torch allows 64)"""
SHAPE_ERRORS: dict[str, tuple[str, ...]] = {"import_no_solution_class": (), "import_missing_methods": ("missing", "found")}
"""each key a worker may say the submission's file is not a solution by (an ``import_error`` with ``key`` and its
fields, no text: the parent says it in the report's language), and its fields: the file defines no class
``Solution``; or the methods of the problem's that class lacks, with the public methods it has (lists of names, the
latter cut by :func:`names_within`). The parent checks both (:func:`judge.judging.result.not_a_solution`): the
submission ran in the worker before, and may forge them"""
SHAPE_EXC = "ImportError"
"""the ``exc`` a report names such an error by (the exception a worker raised for it when it worded it itself)"""
RESPONSE_CAP = 1 << 20
"""the most bytes of one reply line the parent reads; a longer one ends the worker"""
HIDDEN = "<d"
"""how one hidden value travels: a little-endian float64"""
SOURCE_NAME = "<submission>"
"""the file name the submission is compiled under: its frames in an error's ``trace`` are told from the judge's
by it, and reports show the learner's own name for it (:func:`judge.report.build.build_report`)"""


class Request(StrEnum):
    """What the parent sends."""

    VERIFY = "verify"
    SETUP = "setup"
    CALL = "call"


class Reply(StrEnum):
    """What a worker answers."""

    CHECKSUMS = "checksums"
    LOCKED = "locked"
    READY = "ready"
    IMPORT_ERROR = "import_error"
    RESULT = "result"
    ERROR = "error"


# -- the parent's half -----------------------------------------------------------------------------------------
def verify(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """A checker's one request: every case's object specifications."""
    return {"type": Request.VERIFY, "cases": cases}


def setup(device: str, methods: list[str]) -> dict[str, Any]:
    """A worker's first request: nothing of any case."""
    return {"type": Request.SETUP, "device": device, "methods": methods}


def call(call_id: int, request: dict[str, Any]) -> dict[str, Any]:
    """One call: ``request`` is :meth:`judge.package.cases.Case.call_request`'s (method, args, objects, hidden)."""
    return {"type": Request.CALL, "id": call_id, **request}


def encode_request(message: dict[str, Any]) -> bytes:
    """A request on the wire: its JSON line, with ``hidden`` (a list of numbers) replaced by their count and sent
    after the newline as raw float64s. The worker reads them into a buffer it wipes once they are used
    (:class:`Requests`), so no text of theirs stays in its memory: they are the settings a
    built object must not show (a custom layer's bug, a head's wiring; :func:`judge.package.kinds.conceal`)."""
    hidden = message.get("hidden", [])
    line = json.dumps({**message, "hidden": len(hidden)}).encode() + b"\n"
    return line + b"".join(struct.pack(HIDDEN, float(v)) for v in hidden)


def decode(line: bytes) -> Any:
    """A reply line as JSON (``NaN`` and ``Infinity`` as floats), or None when it is not valid JSON."""
    try:
        return json.loads(line, parse_constant=float)
    except (ValueError, RecursionError):
        return None


def is_reply(message: Any, kind: Reply) -> bool:
    """Whether a decoded ``message`` is an object of type ``kind`` (its other fields are not checked here)."""
    return isinstance(message, dict) and message.get("type") == kind


# -- the worker's half -----------------------------------------------------------------------------------------
def send(out: BinaryIO, message: dict[str, Any]) -> None:
    """One reply, after whatever the worker printed has been flushed (its output pipe is another one)."""
    sys.stdout.flush()
    sys.stderr.flush()
    out.write(json.dumps(message).encode() + b"\n")
    out.flush()


def unsupported(key: str, **fields: Any) -> dict[str, Any]:
    """The marker of a value that cannot travel as data, described by ``key`` of :data:`UNSUPPORTED_FIELDS`."""
    return {UNSUPPORTED: {"key": key, **fields}}


def checksums(sums: list[str]) -> dict[str, Any]:
    return {"type": Reply.CHECKSUMS, "checksums": sums}


def locked() -> dict[str, Any]:
    return {"type": Reply.LOCKED}


def ready() -> dict[str, Any]:
    return {"type": Reply.READY}


def error_fields(exc: str, msg: str, trace: str) -> dict[str, str]:
    """An error's fields as they travel: the type name and message cut at their start, the traceback's tail kept."""
    return {"exc": exc[:TYPE_CHARS], "msg": msg[:MESSAGE_CHARS], "trace": trace[-MESSAGE_CHARS:]}


def import_error(fields: dict[str, str]) -> dict[str, Any]:
    return {"type": Reply.IMPORT_ERROR, **fields}


def not_a_solution(key: str, **fields: Any) -> dict[str, Any]:
    """An ``import_error`` saying the file is not a solution, by ``key`` of :data:`SHAPE_ERRORS` and its fields."""
    return {"type": Reply.IMPORT_ERROR, "key": key, **fields}


def names_within(names: list[str], chars: int = MESSAGE_CHARS) -> list[str]:
    """The first of ``names`` whose ``", "``-joined text fits in ``chars`` characters, the last one cut to fill them:
    that text is the whole list's cut at ``chars`` (or two characters short, where the cut falls in a separator)."""
    kept: list[str] = []
    used = -len(", ")
    for name in names:
        room = chars - used - len(", ")
        if room <= 0:
            break
        kept.append(name[:room])
        used += len(", ") + len(kept[-1])
        if len(name) > room:
            break
    return kept


def result(call_id: int, value: Any) -> dict[str, Any]:
    """The answer to call ``call_id``: the returned value, encoded (:func:`judge.worker.main.encode`)."""
    return {"id": call_id, "type": Reply.RESULT, "value": value}


def error(call_id: int, fields: dict[str, str]) -> dict[str, Any]:
    """The answer to call ``call_id`` when it raised: :func:`error_fields`."""
    return {"id": call_id, "type": Reply.ERROR, **fields}


class Requests:
    """The parent's requests, read from the raw pipe into one buffer that is wiped as each is consumed.

    A request's ``hidden`` values (:func:`encode_request`) are read from that buffer as
    numbers and its bytes zeroed at once; no buffered reader ever holds a copy of them.
    """

    CHUNK = 1 << 16

    def __init__(self, stream: BinaryIO):
        self.stream = stream
        self.buffer = bytearray(self.CHUNK)
        self.end = 0

    def _fill(self, need: int) -> bool:
        """Read until the buffer holds ``need`` bytes; False at the end of the stream."""
        while self.end < need:
            if self.end == len(self.buffer):
                grown = bytearray(2 * len(self.buffer))
                grown[:self.end] = self.buffer
                self.buffer[:] = bytes(len(self.buffer))
                self.buffer = grown
            read = self.stream.readinto(memoryview(self.buffer)[self.end:])
            if not read:
                return False
            self.end += read
        return True

    def next(self) -> dict[str, Any] | None:
        """The next request, with ``hidden`` as a tuple of floats; None when the parent closed the pipe."""
        start = 0
        while (newline := self.buffer.find(b"\n", start, self.end)) < 0:
            start = self.end
            if not self._fill(self.end + 1):
                return None
        message = json.loads(self.buffer[:newline].decode())
        count = message.get("hidden", 0)
        size = struct.calcsize(HIDDEN)
        if type(count) is not int or not self._fill(newline + 1 + count * size):
            return None
        message["hidden"] = struct.unpack_from(f"<{count}d", self.buffer, newline + 1)
        used = newline + 1 + count * size
        rest = bytes(self.buffer[used:self.end])
        self.buffer[:self.end] = bytes(self.end)
        self.buffer[:len(rest)] = rest
        self.end = len(rest)
        return message

    def __iter__(self) -> Any:
        return iter(self.next, None)
