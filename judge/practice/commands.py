"""The command line of the learner's loop: ``judge watch`` and ``judge history``.

:func:`add_commands` adds them to ``judge``'s parser; everything heavier is imported when a command runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from judge import messages
from judge.errors import BadInput
from judge.package.problem import find_problem
from judge.report.escape import visible
from judge.report.render import render, use_color


def cmd_watch(args: argparse.Namespace) -> int:
    """Judge the samples on every save until Ctrl-C, which ends it normally."""
    from judge.judging.plan import cuda_available
    from judge.judging.submission import read_submission
    from judge.practice.watch import watch

    problem = find_problem(args.slug)
    path = Path(args.file) if args.file else Path(f"{problem.slug}.py")
    read_submission(path)  # a missing or non-Python file is said now, in one line
    if args.device == "cuda" and not cuda_available():
        raise BadInput("no_cuda")
    color = use_color(sys.stdout.isatty(), args.no_color)

    def show(report: dict[str, Any]) -> None:
        sys.stdout.write(("\x1b[2J\x1b[H" if color else "") + render(report, "text", color, args.verbose))
        print(messages.say("watch_waiting", path=visible(str(path))), flush=True)

    try:
        watch(problem, path, show, args.device)
    except KeyboardInterrupt:
        print(messages.say("watch_stopped"))
    return 0


def _restore(code: str, slug: str, number: int, file: str | None, force: bool) -> None:
    path = Path(file) if file else Path(f"{slug}.py")
    if path.exists() and not force and path.read_bytes() != code.encode("utf-8"):
        raise BadInput("history_restore_exists", path=path, number=number, slug=slug)
    try:
        path.write_text(code, encoding="utf-8")
    except OSError as exc:
        raise BadInput("start_unwritable", path=path, reason=exc.strerror) from None
    print(messages.say("history_restored", number=number, slug=slug, path=path))


def _restore_args(values: list[str]) -> tuple[int, str | None]:
    """``--restore N [FILE]``: the attempt's number and the file to write (None: ``<slug>.py``)."""
    if len(values) > 2 or not values[0].isdigit():
        raise BadInput("history_bad_restore", given=" ".join(values))
    return int(values[0]), values[1] if len(values) == 2 else None


def cmd_history(args: argparse.Namespace) -> int:
    """List the attempts (oldest first, numbered for good from 1), print one's code (``--show N``) or write it back
    (``--restore N``)."""
    from judge.practice.history import attempts, db_path, numbered
    from judge.practice.views import attempt_list

    if args.slug:
        find_problem(args.slug)
    if args.show is not None or args.restore:
        if not args.slug:
            raise BadInput("history_which_problem")
        number, file = (args.show, None) if args.show is not None else _restore_args(args.restore)
        attempt = numbered(args.slug, number)
        if args.show is not None:
            sys.stdout.write(attempt.code)
        else:
            _restore(attempt.code, args.slug, number, file, args.force)
        return 0
    found = attempts(args.slug)
    if not found:
        print(messages.say("history_empty", slug=args.slug) if args.slug else messages.say("history_empty_all"))
        return 0
    sys.stdout.write(attempt_list(found, use_color(sys.stdout.isatty(), args.no_color), str(db_path()),
                                  one_problem=bool(args.slug)))
    return 0


def add_commands(sub: Any) -> None:
    watch = sub.add_parser("watch", help=messages.say("help_watch"), description=messages.say("help_watch"))
    watch.set_defaults(handler=cmd_watch)
    watch.add_argument("slug", help="the problem, e.g. training-diagnostics")
    watch.add_argument("file", nargs="?", help="your solution (default: <slug>.py)")
    watch.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="where the worker runs (default: cpu)")
    watch.add_argument("--no-color", action="store_true", help="no colours and no clearing the screen")
    watch.add_argument("--verbose", action="store_true", help="show the worker's security layers in full")

    history = sub.add_parser("history", help=messages.say("help_history"), description=messages.say("help_history"))
    history.set_defaults(handler=cmd_history)
    history.add_argument("slug", nargs="?", help="the problem (default: every problem)")
    shown = history.add_mutually_exclusive_group()
    shown.add_argument("--show", type=int, metavar="N", help="print the code of attempt N (1: the first; 'judge history SLUG' lists the numbers)")
    shown.add_argument("--restore", nargs="+", metavar="N [FILE]",
                       help="write the code of attempt N back to FILE (default: <slug>.py)")
    history.add_argument("--force", action="store_true", help="with --restore: replace a file that differs")
    history.add_argument("--no-color", action="store_true", help="no colours (also: set NO_COLOR)")
