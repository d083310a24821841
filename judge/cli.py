"""The ``judge`` command line. Parses arguments, calls one step, prints; the wording lives in :mod:`judge.messages`.

Exit status: 0 accepted (or the command succeeded), 1 not accepted (or a check failed), 2 bad usage or bad
input, 3 internal error.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path
from typing import Any, Callable

from judge import __version__, messages
from judge.errors import BadInput, JudgeError
from judge.package.problem import find_problem
from judge.report.render import FORMATS, render, use_color

EXIT_OK, EXIT_NOT_ACCEPTED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line and exit 2, like every other bad input
        self.exit(EXIT_USAGE, f"judge: {message} (see 'judge {self.prog.split()[-1]} --help')\n"
                  if " " in self.prog else f"judge: {message} (see 'judge --help')\n")


def _write(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BadInput("output_unwritable", path=output, reason=exc.strerror) from None


def _judge(args: argparse.Namespace, mode: str) -> int:
    from judge.judging.submission import failure_report, judge_file

    problem = find_problem(args.slug)
    try:
        report = judge_file(problem, Path(args.file), mode, args.device)
    except JudgeError as exc:
        if isinstance(exc, BadInput):
            raise
        report, code = failure_report(problem, Path(args.file), mode, args.device, str(exc)), EXIT_INTERNAL
    except Exception as exc:  # noqa: BLE001 -- a report is written even when the judge itself fails
        reason = f"{type(exc).__name__}: {exc}"
        traceback.print_exc(file=sys.stderr)
        report, code = failure_report(problem, Path(args.file), mode, args.device, reason), EXIT_INTERNAL
    else:
        code = {"accepted": EXIT_OK, "internal_error": EXIT_INTERNAL}.get(report["verdict"], EXIT_NOT_ACCEPTED)
    color = use_color(args.output is None and sys.stdout.isatty(), args.no_color)
    _write(render(report, args.format, color), args.output)
    return code


def cmd_run(args: argparse.Namespace) -> int:
    return _judge(args, "run")


def cmd_submit(args: argparse.Namespace) -> int:
    return _judge(args, "submit")


def cmd_statement(args: argparse.Namespace) -> int:
    from judge.package.statement import render_statement

    _write(render_statement(find_problem(args.slug), args.format, args.lang), args.output)
    return EXIT_OK


def cmd_gen(args: argparse.Namespace) -> int:
    from judge.package.generate import generate

    problem = find_problem(args.slug)
    if args.device == "cuda":
        from judge.judging.submission import cuda_available

        if not cuda_available():
            raise BadInput("no_cuda")
    rejected = generate(problem, dry_run=args.dry_run, log=print, device=args.device)
    return EXIT_NOT_ACCEPTED if rejected else EXIT_OK


def cmd_verify(args: argparse.Namespace) -> int:
    from judge.package.verify import verify

    problems = [find_problem(s) for s in args.slugs] if args.slugs else None
    return EXIT_OK if verify(problems, declared=not args.no_submissions, log=print) else EXIT_NOT_ACCEPTED


def _add_judging_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("slug", help="the problem, e.g. training-diagnostics")
    p.add_argument("file", help="your solution: a .py file defining class Solution")
    p.add_argument("--format", choices=FORMATS, default="text", help="report format (default: text)")
    p.add_argument("--output", type=Path, help="write the report to this file instead of the terminal")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="where the worker runs (default: cpu)")
    p.add_argument("--no-color", action="store_true", help="no colours (also: set NO_COLOR)")


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="judge", description="Practise, grade and author PyTorch training-diagnostics problems.")
    top.add_argument("--version", action="version", version=f"judge {__version__}")
    sub = top.add_subparsers(dest="command", required=True, parser_class=_Parser)
    commands: list[tuple[str, Callable[[argparse.Namespace], int], str]] = [
        ("run", cmd_run, "judge a solution on the sample cases, with full detail"),
        ("submit", cmd_submit, "judge a solution on every case, samples then hidden"),
        ("statement", cmd_statement, "render a problem statement"),
        ("gen", cmd_gen, "author: compute expected values with the reference and reject fragile cases"),
        ("verify", cmd_verify, "author: check problem packages and judge their declared submissions"),
    ]
    made: dict[str, argparse.ArgumentParser] = {}
    for name, handler, help_text in commands:
        made[name] = sub.add_parser(name, help=help_text, description=help_text)
        made[name].set_defaults(handler=handler)
    for name in ("run", "submit"):
        _add_judging_options(made[name])
    made["statement"].add_argument("slug")
    made["statement"].add_argument("--format", choices=("markdown", "html", "text"), default="markdown")
    made["statement"].add_argument("--lang", choices=("en", "zh"), default="en")
    made["statement"].add_argument("--output", type=Path)
    made["gen"].add_argument("slug")
    made["gen"].add_argument("--dry-run", action="store_true", help="check and report, write nothing")
    made["gen"].add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                             help="compute the expectations of this device (cuda: float32 on the GPU, TF32 off)")
    made["verify"].add_argument("slugs", nargs="*", help="problems to verify (default: all)")
    made["verify"].add_argument("--no-submissions", action="store_true", help="skip judging declared submissions")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.handler(args)
    except JudgeError as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("judge: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 -- one line, never a bare traceback, for the judge's own bugs too
        print(f"judge: {messages.say('internal', reason=f'{type(exc).__name__}: {exc}')}", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
