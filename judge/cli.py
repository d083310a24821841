"""The ``judge`` command line. Parses arguments, calls one step, prints; the wording lives in :mod:`judge.messages`.

Exit status: 0 accepted (or the command succeeded), 1 not accepted (or a check failed), 2 bad usage or bad
input, 3 internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Callable

from judge import messages
from judge.doctor import version_line
from judge.errors import BadInput, JudgeError
from judge.grading.commands import add_commands as add_grading_commands
from judge.package.problem import find_problem, unknown_problem
from judge.platforms.commands import add_commands
from judge.practice.commands import add_commands as add_practice_commands
from judge.report.escape import visible
from judge.report.render import FORMATS, render, use_color


EXIT_OK, EXIT_NOT_ACCEPTED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_INTERRUPTED = 130


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


def _solution_path(args: argparse.Namespace) -> Path:
    """The file given, or ``<slug>.py`` in the current folder: where ``judge start`` puts the starter."""
    return Path(args.file) if args.file else Path(f"{args.slug}.py")


def _judge(args: argparse.Namespace, mode: str) -> int:
    """Judge the file given (one that cannot be read is bad input, said in one line), record it in the history,
    and print its report; the exit status follows the verdict's severity."""
    from judge.judging.plan import Asked
    from judge.judging.submission import read_submission
    from judge.judging.verdict import Severity, Verdict, VERDICTS
    from judge.pipeline import Judge, Submitted, judge_guarded
    from judge.practice.history import record_report

    problem = find_problem(args.slug)
    path = _solution_path(args)
    data = read_submission(path)
    case = getattr(args, "case", None)
    report = judge_guarded(Submitted(path, data), Judge(Asked(problem, mode, args.device, Path(case) if case else None)))
    if not case:  # a case of one's own is not an attempt at the problem's cases: not recorded
        _, warning = record_report(report, code=data.decode("utf-8"))  # read_submission checked that it is UTF-8
        if warning:
            print(f"judge: {warning}", file=sys.stderr)
    color = use_color(args.output is None and sys.stdout.isatty(), args.no_color)
    _write(render(report, args.format, color, args.verbose), args.output)
    exits = {Severity.PASS: EXIT_OK, Severity.FAIL: EXIT_NOT_ACCEPTED, Severity.JUDGE_FAULT: EXIT_INTERNAL}
    return exits[VERDICTS[Verdict(report["verdict"])].severity]


def cmd_run(args: argparse.Namespace) -> int:
    return _judge(args, "run")


def cmd_submit(args: argparse.Namespace) -> int:
    return _judge(args, "submit")


def cmd_statement(args: argparse.Namespace) -> int:
    from judge.package.statement import render_statement

    color = use_color(args.output is None and sys.stdout.isatty(), False)
    _write(render_statement(find_problem(args.slug), args.format, args.lang, color), args.output)
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    from judge.package.problem import available
    from judge.practice.history import progress
    from judge.practice.views import problem_list

    slugs = available()
    color = use_color(sys.stdout.isatty(), args.no_color)
    sys.stdout.write(problem_list([find_problem(s) for s in slugs], progress(), color))
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
    footer = (messages.say("show_status", status=mine.status, attempts=mine.attempts, slug=problem.slug)
              if mine else messages.say("show_new", slug=problem.slug))
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
        raise BadInput("start_unwritable", path=path, reason=exc.strerror) from None
    print(messages.say("start_written", title=problem.title, path=path))
    print(messages.say("start_next", slug=problem.slug, file="" if path == default else f" {path}"))
    return EXIT_OK


def _require_device(device: str) -> None:
    """``--device cuda`` without a GPU is bad usage, said before any work starts."""
    if device == "cuda":
        from judge.judging.plan import cuda_available

        if not cuda_available():
            raise BadInput("no_cuda")


def cmd_gen(args: argparse.Namespace) -> int:
    from judge.author.generate import generate

    problem = find_problem(args.slug)
    _require_device(args.device)
    if args.kill:
        from judge.author.mutant_judge import Pool
        from judge.author.propose import kill

        with Pool() as pool:
            return EXIT_OK if kill(problem, args.kill, pool, dry_run=args.dry_run) else EXIT_NOT_ACCEPTED
    rejected = generate(problem, dry_run=args.dry_run, log=print, device=args.device)
    return EXIT_NOT_ACCEPTED if rejected else EXIT_OK


def cmd_verify(args: argparse.Namespace) -> int:
    from judge.author.verify import verify
    from judge.package.problem import available

    known = available()
    for slug in args.slugs:
        if slug not in known:
            raise unknown_problem(slug, known)
    _require_device(args.device)
    passed = verify(args.slugs, declared=not args.no_submissions, log=print, device=args.device,
                    mutation=not args.no_mutation, warnings=args.warnings)
    return EXIT_OK if passed else EXIT_NOT_ACCEPTED


def cmd_mutate(args: argparse.Namespace) -> int:
    import json

    from judge.author.mutant_judge import Pool
    from judge.author.mutate import mutate, render_text

    problem = find_problem(args.slug)
    if args.max is not None and args.max < 1:
        raise BadInput("bad_max", value=args.max)
    if args.jobs is not None and args.jobs < 1:
        raise BadInput("bad_jobs", value=args.jobs)
    log = (lambda line: print(line, file=sys.stderr)) if args.format == "text" else (lambda _: None)
    with Pool(args.jobs) as pool:
        run = mutate(problem, pool, args.max, log=log, recheck=args.recheck)
    if args.format == "json":
        print(json.dumps(run.as_json(), indent=1))
    else:
        sys.stdout.write(render_text(run, problem.reference))
    return EXIT_NOT_ACCEPTED if run.below_floor else EXIT_OK


def cmd_new(args: argparse.Namespace) -> int:
    from judge.author.scaffold import is_found, scaffold

    package, reference = scaffold(args.slug)
    print(messages.say("new_written", package=package, reference=reference))
    if not is_found(package):
        print(messages.say("new_set_root", root=package.parent, sep=os.pathsep))
    print(messages.say("new_next", reference=reference, cases=package / "cases", slug=args.slug))
    return EXIT_OK


def cmd_doctor(args: argparse.Namespace) -> int:
    from judge.doctor import report

    sys.stdout.write(report())
    return EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    from judge.serve.launch import LOOPBACK, serve

    if args.exact_figures and args.graded is None:
        raise BadInput("serve_exact_without_class")
    serve(args.host or LOOPBACK, args.port, args.open, args.graded, args.exact_figures)
    return EXIT_OK


def _add_judging_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("slug", help="the problem, e.g. training-diagnostics")
    p.add_argument("file", nargs="?", help="your solution: a .py file defining class Solution (default: <slug>.py)")
    p.add_argument("--format", choices=FORMATS, default="text", help="report format (default: text)")
    p.add_argument("--output", type=Path, help="write the report to this file instead of the terminal")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="where the worker runs (default: cpu)")
    p.add_argument("--no-color", action="store_true", help="no colours (also: set NO_COLOR)")
    p.add_argument("--verbose", action="store_true", help="show the worker's security layers in full")


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="judge", description="Practise, grade and author PyTorch training-diagnostics problems.")
    top.add_argument("--version", action="version", version=version_line())
    sub = top.add_subparsers(dest="command", required=True, parser_class=_Parser)
    commands: list[tuple[str, Callable[[argparse.Namespace], int], str]] = [
        ("list", cmd_list, "list the problems with their difficulty, tags and your progress"),
        ("show", cmd_show, "read a problem's statement in the terminal"),
        ("start", cmd_start, "write a problem's starter file to work in"),
        ("run", cmd_run, "judge a solution on the sample cases, with full detail"),
        ("submit", cmd_submit, "judge a solution on every case, samples then hidden"),
        ("serve", cmd_serve, "practise in your browser: a local site with the problems, an editor, Run and Submit"),
        ("statement", cmd_statement, "render a problem statement"),
        ("new", cmd_new, "author: start a new problem package and its reference stub (in ./problems or $JUDGE_PROBLEMS)"),
        ("gen", cmd_gen, "author: compute expected values with the reference and reject fragile cases"),
        ("verify", cmd_verify, "author: check problem packages and judge their declared submissions"),
        ("mutate", cmd_mutate, "author: judge one-mistake mutants of the reference against the cases: which survive"),
        ("doctor", cmd_doctor, "show the version, devices, problem folders, data folders and security level in use"),
    ]
    made: dict[str, argparse.ArgumentParser] = {}
    for name, handler, help_text in commands:
        made[name] = sub.add_parser(name, help=help_text, description=help_text)
        made[name].set_defaults(handler=handler)
    add_grading_commands(sub)
    add_commands(sub)
    add_practice_commands(sub)
    for name in ("run", "submit"):
        _add_judging_options(made[name])
    made["run"].add_argument("--case", metavar="FILE", help="run a case file of your own (the package's format; "
                                                            "without expected outputs, the outputs are shown)")
    for name in ("list", "show", "start"):
        made[name].add_argument("--no-color", action="store_true", help="no colours (also: set NO_COLOR)")
    made["show"].add_argument("slug", help="the problem, e.g. training-diagnostics")
    made["show"].add_argument("--lang", choices=("en", "zh"), default="en", help="statement language (default: en)")
    made["show"].add_argument("--code", action="store_true", help=messages.say("help_show_code"))
    made["start"].add_argument("slug", help="the problem, e.g. training-diagnostics")
    made["start"].add_argument("path", nargs="?",
                               help="where to write it (default: <slug>.py; a folder: <folder>/<slug>.py)")
    made["start"].add_argument("--force", action="store_true", help="replace an existing file")
    made["serve"].add_argument("--port", type=int, default=8765, help="port to listen on (default: 8765; 0: any free one)")
    made["serve"].add_argument("--host", help="listen on this address instead of 127.0.0.1 (others could then reach "
                                              "the site and run code as you: prints a warning)")
    made["serve"].add_argument("--open", action="store_true", help="open the site in your web browser")
    made["serve"].add_argument("--class", dest="graded", type=Path, metavar="OUT",
                               help="instructor: also browse the --out folder of a 'judge grade' run")
    made["serve"].add_argument("--exact-figures", action="store_true",
                               help="with --class: show hidden cases' CPU time and memory as measured (for "
                                    "instructors; never serve this to students)")
    made["statement"].add_argument("slug")
    made["statement"].add_argument("--format", choices=("markdown", "html", "text"), default="markdown")
    made["statement"].add_argument("--lang", choices=("en", "zh"), default="en")
    made["statement"].add_argument("--output", type=Path)
    made["new"].add_argument("slug", help="the new problem's name: lowercase words joined by hyphens")
    made["gen"].add_argument("slug")
    made["gen"].add_argument("--dry-run", action="store_true", help="check and report, write nothing")
    made["gen"].add_argument("--kill", metavar="MUTANT", help="add the hidden case that kills this surviving mutant "
                                                              "(an id from 'judge mutate')")
    made["gen"].add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                             help="compute the expectations of this device (cuda: float32 on the GPU, TF32 off)")
    made["verify"].add_argument("slugs", nargs="*", help="problems to verify (default: all)")
    made["verify"].add_argument("--no-submissions", action="store_true",
                                help="skip judging declared submissions (and mutants)")
    made["verify"].add_argument("--no-mutation", action="store_true",
                                help="skip judging the reference's mutants (the mutation score and its floor)")
    made["verify"].add_argument("--warnings", action="store_true",
                                help="also list the author warnings (without it they are only counted)")
    made["verify"].add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                                help="judge the declared submissions on this device (cuda: against the CUDA expectations)")
    made["mutate"].add_argument("slug", help="the problem, e.g. dead-relu-detector")
    made["mutate"].add_argument("--max", type=int, help="judge at most this many mutants, spread over the reference")
    made["mutate"].add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    made["mutate"].add_argument("--jobs", type=int, help="mutants judged at once (default: one per core)")
    made["mutate"].add_argument("--recheck", action="store_true",
                                help="judge the declared equivalent mutants on the generated inputs too")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.handler(args)
    except JudgeError as exc:  # its fields can be file names of any bytes: shown, never acted on by the terminal
        print(f"judge: {visible(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"judge: {messages.say('interrupted')}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:  # noqa: BLE001 -- one line, never a bare traceback, for the judge's own bugs too
        print(f"judge: {visible(messages.say('internal', reason=f'{type(exc).__name__}: {exc}'))}", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
