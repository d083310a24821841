"""argparse's own words (``usage:``, ``the following arguments are required: %s``, ``invalid choice: ...``, the
help's headings) in the language a command line is read in: the ``[argparse]`` section of
``messages.<lang>.toml``, by argparse's own English text (its gettext msgid).

argparse says every one of them through its module globals ``_`` and ``ngettext`` (``from gettext import gettext as
_, ngettext``), looked up when it builds a parser (the headings, ``-h``'s help) and when it parses or prints help.
The stdlib's way to translate them is a gettext catalogue: :class:`Words` is one (a ``NullTranslations`` whose
messages come from the toml file rather than a compiled ``.mo``). It is not installed the stdlib's global way
(``textdomain``, ``LANGUAGE``, ``.mo`` files on disk), which would change every gettext user in the process and
ship a second catalogue format; :func:`speaking` puts its two methods in argparse's globals only while ``judge``'s
parser is built and parses (:func:`judge.cli.main`, before any handler or thread runs), and puts argparse's own
back after.
"""

from __future__ import annotations

import argparse
import contextlib
import gettext
from typing import Iterator

from judge import messages

_speaking = ["en"]
"""the language argparse says its words in now: English but inside :func:`speaking`"""


class Words(gettext.NullTranslations):
    """argparse's msgids in one language: each said as the catalogue says it, or as argparse wrote it."""

    def __init__(self, lang: str):
        super().__init__()
        self.words = messages.argparse_words(lang)

    def gettext(self, message: str) -> str:
        return self.words.get(message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        english = msgid1 if n == 1 else msgid2
        return self.words.get(english, english)


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """argparse says its words in ``lang`` inside this block (English, as always, outside it)."""
    words = Words(lang)
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    setattr(argparse, "_", words.gettext)
    setattr(argparse, "ngettext", words.ngettext)
    _speaking.append(lang)
    try:
        yield
    finally:
        _speaking.pop()
        setattr(argparse, "_", saved[0])
        setattr(argparse, "ngettext", saved[1])


def language() -> str:
    """The language argparse says its words in now (a usage error's own wrapper is said in it too)."""
    return _speaking[-1]
