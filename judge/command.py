"""What every wing's commands share: how a command is registered, and where its output goes.

Each wing registers its own commands with an ``add_commands(sub)`` beside their handlers (:mod:`judge.practice.commands`,
:mod:`judge.serve.commands`, :mod:`judge.author.commands`, :mod:`judge.grading.commands`,
:mod:`judge.platforms.commands`, :mod:`judge.doctor`); :mod:`judge.cli` only puts them together and dispatches. A
handler takes the parsed arguments and returns the exit status (:data:`judge.errors.EXIT_OK` and the others); it
imports what is heavy when it runs, so that ``judge --help`` stays quick.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Callable

from judge import argwords, messages
from judge.errors import BadInput, JudgeError
from judge.report.escape import inline, visible
from judge.settings import LANG
from judge.system_words import os_reason

Handler = Callable[[argparse.Namespace], int]
OUTPUT_FIELDS = frozenset({"tail"})
"""message fields that are a program's output (``rerun_failed``'s last lines), shown over their lines"""


def line(lang: str, key: str, /, **fields: Any) -> str:
    """Message ``key`` in ``lang``, safe for a terminal: its fields are data (a file, folder, student or case name
    of any bytes), each shown on one line (:func:`judge.report.escape.inline`), so a newline in a name cannot start
    a line that reads as the judge's own, and a byte that is not UTF-8 shows as ``\\xff`` (never an encoding
    error on a strict terminal). Every line a command prints is made here."""
    return visible(messages.say_in(lang, key, **{name: _shown(name, value) for name, value in fields.items()}))


class _OneLine(messages.Said):
    """A message that is a field of another (a reason, "'a' or 'b'"), said in the language around it and shown on
    one line: its own fields may be names too."""

    def __init__(self, inner: messages.Said | messages.SaidText):
        super().__init__(inner.key, **inner.fields)
        self.inner = inner

    def said_in(self, lang: str) -> str:
        return inline(self.inner.said_in(lang))


def _shown(name: str, value: Any) -> Any:
    """A field as :func:`line` shows it: a text, a path or a message inside the message on one line, anything else
    (a number, a count) as it is."""
    if name in OUTPUT_FIELDS:
        return value
    if isinstance(value, (messages.Said, messages.SaidText)):
        return _OneLine(value)
    return inline(os.fspath(value)) if isinstance(value, (str, os.PathLike)) else value


def error_line(exc: JudgeError, lang: str) -> str:
    """What ``exc`` says, in ``lang``, as :func:`line` shows it."""
    return line(lang, exc.key, **exc.fields)


def add_command(sub: Any, name: str, handler: Handler, help_text: str) -> argparse.ArgumentParser:
    """Add the command ``name`` to ``judge``'s subcommands (``sub``, from ``add_subparsers``), run by ``handler``."""
    parser = sub.add_parser(name, help=help_text, description=help_text)
    parser.set_defaults(handler=handler)
    return parser


def add_lang(parser: argparse.ArgumentParser, lang: str, help_key: str = "help_lang") -> None:
    """The option ``--lang`` of a command a learner reads: the languages the judge speaks, by default the one of
    ``JUDGE_LANG`` (:data:`judge.settings.LANG`), its help (message ``help_key``) said in ``lang``."""
    default = LANG.lenient()
    parser.add_argument("--lang", choices=tuple(messages.LANGUAGES), default=default,
                        help=messages.say_in(lang, help_key, default=default))


def positive(key: str) -> Callable[[str], int]:
    """An argparse ``type`` for an option that counts things (``--jobs``, ``--max``): a whole number of at least 1,
    or the usage line that message ``key`` of the catalogue says (exit 2, as argparse's own errors)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(messages.say_in(argwords.language(), key, value=text))
        return value
    return parse


def port_number(text: str) -> int:
    """An argparse ``type`` for ``--port``: 0 (any free port) to 65535, else a usage line (a bind refused a port
    beyond them as the judge's internal error)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(messages.say_in(argwords.language(), "bad_port", value=text))
    return value


def write_output(text: str, output: Path | None) -> None:
    """``text`` to the terminal, or to the file ``output``; a file that cannot be written is bad input."""
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BadInput("output_unwritable", path=output, reason=os_reason(exc)) from None
