"""The ``judge`` command line: it puts together the commands each wing registers, and dispatches to one.

Every wing registers its own commands beside their handlers (:mod:`judge.command`); this module only builds
the parser from them and turns what a handler raises into one line and an exit status (:data:`judge.errors.EXIT_OK`
and the others: 0 accepted or done, 1 not accepted or a check failed, 2 bad usage or bad input, 3 internal
error, 130 interrupted).
"""

from __future__ import annotations

import argparse
import sys

from judge import argwords, doctor, messages
from judge.author import commands as author
from judge.doctor import version_line
from judge.errors import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_USAGE, JudgeError
from judge.grading import commands as grading
from judge.platforms import commands as platforms
from judge.practice import commands as practice
from judge.command import error_line, line
from judge.report.escape import visible
from judge.serve import commands as serve
from judge.settings import LANG

WINGS = (practice, serve, author, grading, platforms, doctor)
"""whose commands ``judge`` has, in the order ``judge --help`` lists them"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line and exit 2, like every other bad input
        command = f"judge {self.prog.split()[-1]}" if " " in self.prog else "judge"
        said = line(argwords.language(), "usage_error", message=message, command=command)
        self.exit(EXIT_USAGE, f"judge: {said}\n")


def parser(lang: str = "en") -> argparse.ArgumentParser:
    """``judge``'s parser, its help said in ``lang`` (argparse's own words too, inside :func:`argwords.speaking`)."""
    top = _Parser(prog="judge", description=messages.say_in(lang, "help_judge"))
    top.add_argument("--version", action="version", version=version_line(), help=messages.say_in(lang, "help_version"))
    sub = top.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for wing in WINGS:
        wing.add_commands(sub, lang)
    return top


def language_of(argv: list[str]) -> str:
    """The language a command line is read in, found before it is parsed (its help and usage errors are said in
    it): ``--lang X`` or ``--lang=X`` where given (the last one, as argparse takes it; not after ``--``), else
    ``JUDGE_LANG``; a language the judge does not speak is English, never an error here (argparse refuses a bad
    ``--lang`` itself, in the language this finds)."""
    found = LANG.lenient()
    for i, word in enumerate(argv):
        if word == "--":
            break
        given = word.removeprefix("--lang=") if word.startswith("--lang=") else \
            argv[i + 1] if word == "--lang" and i + 1 < len(argv) else None
        if given is not None:
            found = given if given in messages.LANGUAGES else "en"
    return found


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    with argwords.speaking(language_of(argv)):
        args = parser(argwords.language()).parse_args(argv)
    lang = getattr(args, "lang", "en")  # the learner's commands take --lang: their one-line errors are said in it
    try:
        return args.handler(args)
    except JudgeError as exc:  # its fields can be file names of any bytes: shown, never acted on by the terminal
        print(f"judge: {error_line(exc, lang)}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"judge: {messages.say_in(lang, 'interrupted')}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:  # noqa: BLE001 -- one line, never a bare traceback, for the judge's own bugs too
        print(f"judge: {visible(messages.say_in(lang, 'internal', reason=f'{type(exc).__name__}: {exc}'))}",
              file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
