"""The command line of the learner's loop: ``judge list``, ``show``, ``start``, ``run``, ``submit``, ``watch`` and
``history``.

:func:`add_commands` adds them to ``judge``'s parser; everything heavier is imported when a command runs.
"""

from __future__ import annotations

import argparse
import errno
import os
import stat
import sys
from pathlib import Path
from typing import Any

from judge import messages
from judge.command import add_command, add_lang, line, write_output
from judge.errors import EXIT_INTERNAL, EXIT_NOT_ACCEPTED, EXIT_OK, BadInput
from judge.package.problem import find_problem
from judge.report.escape import visible
from judge.report.render import FORMATS, render, use_color
from judge.system_words import os_reason


def _solution_path(args: argparse.Namespace) -> Path:
    """The file given, or ``<slug>.py`` in the current folder: where ``judge start`` puts the starter."""
    return Path(args.file) if args.file else Path(f"{args.slug}.py")


def _judge(args: argparse.Namespace, mode: str) -> int:
    """Judge the file given (one that cannot be read is bad input, said in one line), record it in the history,
    and print its report; the exit status follows the verdict's severity."""
    from judge.judging.plan import Asked
    from judge.judging.submission import read_submission
    from judge.judging.verdict import VERDICTS, Severity, Verdict
    from judge.pipeline import Judge, Submitted, judge_guarded
    from judge.practice.history import record_report

    problem = find_problem(args.slug)
    path = _solution_path(args)
    data = read_submission(path)
    case = getattr(args, "case", None)
    asked = Asked(problem, mode, args.device, Path(case) if case else None)
    report = judge_guarded(Submitted(path, data), Judge(asked, lang=args.lang))
    if not case:  # a case of one's own is not an attempt at the problem's cases: not recorded
        _, warning = record_report(report, code=data.decode("utf-8"))  # read_submission checked that it is UTF-8
        if warning:
            print(f"judge: {warning}", file=sys.stderr)
    color = use_color(args.output is None and sys.stdout.isatty(), args.no_color)
    write_output(render(report, args.format, color, args.verbose), args.output)
    exits = {Severity.PASS: EXIT_OK, Severity.FAIL: EXIT_NOT_ACCEPTED, Severity.JUDGE_FAULT: EXIT_INTERNAL}
    return exits[VERDICTS[Verdict(report["verdict"])].severity]


def cmd_run(args: argparse.Namespace) -> int:
    return _judge(args, "run")


def cmd_submit(args: argparse.Namespace) -> int:
    return _judge(args, "submit")


def cmd_list(args: argparse.Namespace) -> int:
    from judge.package.problem import available
    from judge.practice.history import progress
    from judge.practice.views import problem_list

    slugs = available()
    color = use_color(sys.stdout.isatty(), args.no_color)
    sys.stdout.write(problem_list([find_problem(s) for s in slugs], progress(), color, args.lang))
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    from judge.package.statement import render_statement
    from judge.practice.history import progress

    problem = find_problem(args.slug)
    if args.code:  # Python only, so that it can be pasted or written to a file whole: the statement is one 'show' away
        from judge.package.snippet import problem_code

        sys.stdout.write(visible(problem_code(problem, args.lang)) + "\n")
        return EXIT_OK
    color = use_color(sys.stdout.isatty(), args.no_color)
    mine = progress().get(problem.slug)
    footer = (messages.say_in(args.lang, "show_status", status=messages.say_in(args.lang, f"status_{mine.status.value}"),
                              attempts=mine.attempts, slug=problem.slug)
              if mine else messages.say_in(args.lang, "show_new", slug=problem.slug))
    sys.stdout.write(render_statement(problem, "text", args.lang, color) + "\n" + footer + "\n")
    return EXIT_OK


def cmd_start(args: argparse.Namespace) -> int:
    problem = find_problem(args.slug)
    default = Path(f"{problem.slug}.py")
    path = Path(args.path) if args.path else default
    if path.is_dir():
        path = path / default
    if path.suffix != ".py":
        raise BadInput("start_not_python", path=path)
    if path.exists() and not args.force:
        raise BadInput("start_exists", path=path)
    try:
        path.write_bytes(problem.starter.read_bytes())
    except OSError as exc:
        raise BadInput("start_unwritable", path=path, reason=os_reason(exc)) from None
    print(line(args.lang, "start_written", title=problem.title_in(args.lang), path=path))
    print(line(args.lang, "start_next", slug=problem.slug, file="" if path == default else f" {path}"))
    return EXIT_OK


def cmd_watch(args: argparse.Namespace) -> int:
    """Judge the samples on every save until Ctrl-C, which ends it normally."""
    from judge.judging.plan import require_device
    from judge.judging.submission import read_submission
    from judge.practice.watch import watch

    problem = find_problem(args.slug)
    path = _solution_path(args)
    read_submission(path)  # a missing or non-Python file is said now, in one line
    require_device(args.device)
    color = use_color(sys.stdout.isatty(), args.no_color)

    def show(report: dict[str, Any]) -> None:
        sys.stdout.write(("\x1b[2J\x1b[H" if color else "") + render(report, "text", color, args.verbose))
        print(line(args.lang, "watch_waiting", path=path), flush=True)

    def judging() -> None:
        print(line(args.lang, "watch_judging", path=path), flush=True)

    try:
        watch(problem, path, show, args.device, judging=judging, lang=args.lang)
    except KeyboardInterrupt:
        print(messages.say_in(args.lang, "watch_stopped"))
    return EXIT_OK


def _linked(path: Path) -> Path | None:
    """The first component of ``path`` that is a symbolic link, if any, walked as the kernel walks it: from the
    working folder (or the root), each ``..`` taken after the link before it, never cancelled out of the text."""
    walked = Path("/") if path.is_absolute() else Path.cwd()
    for part in path.parts[1:] if path.is_absolute() else path.parts:
        walked = walked / part
        if walked.is_symlink():
            return walked
    return None


def _restore(code: str, slug: str, number: int, file: str | None, force: bool, lang: str) -> None:
    """Write an attempt's code back to ``file``, never through a symbolic link: a path with a link in
    it, the file itself or a folder above it, is refused, and the file is opened with ``O_NOFOLLOW`` so a link
    put there meanwhile is too. Only a regular file is replaced, and nothing is waited on (a FIFO would block
    the judge for ever)."""
    path = Path(file) if file else Path(f"{slug}.py")
    link = _linked(path)
    if link is not None:
        raise BadInput("history_restore_link", path=link)
    if path.exists() and not path.is_file():
        raise BadInput("history_restore_special", path=path, number=number)
    try:
        differs = path.exists() and not force and path.read_bytes() != code.encode("utf-8")
    except OSError as exc:
        raise BadInput("start_unwritable", path=path, reason=os_reason(exc)) from None
    if differs:
        raise BadInput("history_restore_exists", path=path, number=number, slug=slug)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise BadInput("history_restore_link", path=path) from None
        raise BadInput("start_unwritable", path=path, reason=os_reason(exc)) from None
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for a FIFO or a device meanwhile
            raise BadInput("history_restore_special", path=path, number=number)
        os.ftruncate(fd, 0)
        f.write(code)
    print(line(lang, "history_restored", number=number, slug=slug, path=path))


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
            _restore(attempt.code, args.slug, number, file, args.force, args.lang)
        return EXIT_OK
    found = attempts(args.slug)
    if not found:
        print(messages.say_in(args.lang, "history_empty", slug=args.slug) if args.slug
              else messages.say_in(args.lang, "history_empty_all"))
        return EXIT_OK
    sys.stdout.write(attempt_list(found, use_color(sys.stdout.isatty(), args.no_color), str(db_path()),
                                  one_problem=bool(args.slug), lang=args.lang))
    return EXIT_OK


def _add_judging_options(p: argparse.ArgumentParser, lang: str) -> None:
    p.add_argument("slug", help=messages.say_in(lang, "help_slug"))
    p.add_argument("file", nargs="?", help=messages.say_in(lang, "help_file"))
    p.add_argument("--format", choices=FORMATS, default="text", help=messages.say_in(lang, "help_format"))
    p.add_argument("--output", type=Path, help=messages.say_in(lang, "help_output"))
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help=messages.say_in(lang, "help_device"))
    p.add_argument("--no-color", action="store_true", help=messages.say_in(lang, "help_no_color"))
    p.add_argument("--verbose", action="store_true", help=messages.say_in(lang, "help_verbose"))
    add_lang(p, lang)


def add_commands(sub: Any, lang: str = "en") -> None:
    """Add the learner's commands to ``judge``'s subcommands (``sub``, from ``add_subparsers``), their help said in
    ``lang``."""
    def say(key: str) -> str:
        return messages.say_in(lang, key)

    listing = add_command(sub, "list", cmd_list, say("help_list"))
    listing.add_argument("--no-color", action="store_true", help=say("help_no_color"))
    add_lang(listing, lang)

    show = add_command(sub, "show", cmd_show, say("help_show"))
    show.add_argument("--no-color", action="store_true", help=say("help_no_color"))
    show.add_argument("slug", help=say("help_slug"))
    add_lang(show, lang)
    show.add_argument("--code", action="store_true", help=say("help_show_code"))

    start = add_command(sub, "start", cmd_start, say("help_start"))
    start.add_argument("--no-color", action="store_true", help=say("help_no_color"))
    start.add_argument("slug", help=say("help_slug"))
    start.add_argument("path", nargs="?", help=say("help_start_path"))
    start.add_argument("--force", action="store_true", help=say("help_start_force"))
    add_lang(start, lang)

    run = add_command(sub, "run", cmd_run, say("help_run"))
    _add_judging_options(run, lang)
    run.add_argument("--case", metavar="FILE", help=say("help_run_case"))
    _add_judging_options(add_command(sub, "submit", cmd_submit, say("help_submit")), lang)

    watch = add_command(sub, "watch", cmd_watch, say("help_watch"))
    watch.add_argument("slug", help=say("help_slug"))
    watch.add_argument("file", nargs="?", help=say("help_watch_file"))
    watch.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help=say("help_device"))
    watch.add_argument("--no-color", action="store_true", help=say("help_watch_no_color"))
    watch.add_argument("--verbose", action="store_true", help=say("help_verbose"))
    add_lang(watch, lang)

    history = add_command(sub, "history", cmd_history, say("help_history"))
    history.add_argument("slug", nargs="?", help=say("help_history_slug"))
    shown = history.add_mutually_exclusive_group()
    shown.add_argument("--show", type=int, metavar="N", help=say("help_history_show"))
    shown.add_argument("--restore", nargs="+", metavar="N [FILE]", help=say("help_history_restore"))
    history.add_argument("--force", action="store_true", help=say("help_history_force"))
    history.add_argument("--no-color", action="store_true", help=say("help_no_color"))
    add_lang(history, lang)
