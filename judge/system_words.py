"""Other programs' words in the judge's one-line errors: why the system refused a file (an ``OSError``'s strerror)
and why the JSON reader refused a case (a ``json.JSONDecodeError``'s ``msg``).

In English they stay those programs' own words, as they always were; in another language each is said by the
catalogue: the common errnos by name (:data:`OS_ERRORS`, any other as ``os_error`` with its errno's name) and every
message of the JSON reader (:data:`JSON_ERRORS`, any other as ``json_error``). Each is a
:class:`judge.messages.Said` field of the message around it, so it is said in that message's language.
"""

from __future__ import annotations

import errno
from typing import Any

from judge.messages import Said

OS_ERRORS = {errno.ENOENT: "os_enoent", errno.EACCES: "os_eacces", errno.EISDIR: "os_eisdir",
             errno.ENOTDIR: "os_enotdir", errno.ENAMETOOLONG: "os_enametoolong", errno.ELOOP: "os_eloop",
             errno.EROFS: "os_erofs", errno.ENOSPC: "os_enospc", errno.EPERM: "os_eperm",
             errno.EADDRINUSE: "os_eaddrinuse", errno.EADDRNOTAVAIL: "os_eaddrnotavail"}
"""the errnos a learner meets most (a file or folder that is missing, forbidden, of the other kind, a path too long
or looping, a disk read-only or full; a port taken), by their message key"""
JSON_ERRORS = (("Expecting value", "json_expecting_value"),
               ("Expecting property name enclosed in double quotes", "json_expecting_property"),
               ("Expecting ':' delimiter", "json_expecting_colon"), ("Expecting ',' delimiter", "json_expecting_comma"),
               ("Unterminated string starting at", "json_unterminated_string"),
               ("Invalid control character", "json_control_character"),
               ("Invalid \\uXXXX escape", "json_unicode_escape"), ("Invalid \\escape", "json_escape"),
               ("Extra data", "json_extra_data"), ("Illegal trailing comma", "json_trailing_comma"))
"""every message of the JSON reader (``json.decoder`` and its C scanner), by how it starts (the pure-Python reader
appends the character to two of them), and its key; the first that matches wins"""


class Native(Said):
    """Another program's words: as it wrote them in English, the catalogue's ``key`` in any other language."""

    def __init__(self, english: str, key: str, /, **fields: Any):
        super().__init__(key, **fields)
        self.english = english

    def said_in(self, lang: str) -> str:
        return self.english if lang == "en" else super().said_in(lang)


def os_reason(exc: OSError, english: str | None = None) -> Native:
    """Why the system refused: ``english`` (default: the strerror, or the error's text where it has none) in
    English, and in another language the errno's message, or ``os_error`` naming the errno."""
    said = english if english is not None else exc.strerror or str(exc)
    code = exc.errno or 0
    if code in OS_ERRORS:
        return Native(said, OS_ERRORS[code])
    return Native(said, "os_error", name=errno.errorcode.get(code, str(code)))


def json_reason(msg: str) -> Native:
    """Why the JSON reader refused a text: its ``msg`` in English, the catalogue's words in another language."""
    key = next((k for start, k in JSON_ERRORS if msg.startswith(start)), "json_error")
    return Native(msg, key)
