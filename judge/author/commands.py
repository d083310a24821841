"""The command line of the author tools: ``judge statement``, ``new``, ``gen``, ``verify`` and ``mutate``.

:func:`add_commands` adds them to ``judge``'s parser; everything heavier is imported when a command runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from judge.command import add_command, line, positive, write_output
from judge.errors import EXIT_NOT_ACCEPTED, EXIT_OK
from judge.machine import usable_cores
from judge.package.problem import find_problem, unknown_problem
from judge.report.render import use_color


def cmd_statement(args: argparse.Namespace) -> int:
    from judge.package.statement import render_statement

    color = use_color(args.output is None and sys.stdout.isatty(), False)
    write_output(render_statement(find_problem(args.slug), args.format, args.lang, color), args.output)
    return EXIT_OK


def cmd_new(args: argparse.Namespace) -> int:
    from judge.author.scaffold import is_found, scaffold

    package, reference = scaffold(args.slug)
    print(line("en", "new_written", package=package, reference=reference))
    if not is_found(package):
        print(line("en", "new_set_root", root=package.parent, sep=os.pathsep))
    print(line("en", "new_next", reference=reference, cases=package / "cases", slug=args.slug))
    return EXIT_OK


def cmd_gen(args: argparse.Namespace) -> int:
    from judge.author.generate import generate
    from judge.judging.plan import require_device

    problem = find_problem(args.slug)
    require_device(args.device)
    if args.kill:
        from judge.author.mutation.mutant_judge import Pool
        from judge.author.mutation.propose import kill

        with Pool() as pool:
            return EXIT_OK if kill(problem, args.kill, pool, dry_run=args.dry_run) else EXIT_NOT_ACCEPTED
    rejected = generate(problem, dry_run=args.dry_run, log=print, device=args.device)
    return EXIT_NOT_ACCEPTED if rejected else EXIT_OK


def cmd_verify(args: argparse.Namespace) -> int:
    from judge.author.verify import verify
    from judge.judging.plan import require_device
    from judge.package.problem import available

    known = available()
    for slug in args.slugs:
        if slug not in known:
            raise unknown_problem(slug, known)
    require_device(args.device)
    passed = verify(args.slugs, declared=not args.no_submissions, log=print, device=args.device,
                    mutation=not args.no_mutation, warnings=args.warnings, recompute=args.recompute,
                    jobs=args.jobs or usable_cores())
    return EXIT_OK if passed else EXIT_NOT_ACCEPTED


def cmd_mutate(args: argparse.Namespace) -> int:
    import json

    from judge.author.mutation.mutant_judge import Pool
    from judge.author.mutation.mutate import mutate, render_text

    problem = find_problem(args.slug)
    log = (lambda line: print(line, file=sys.stderr)) if args.format == "text" else (lambda _: None)
    with Pool(args.jobs, fast=not args.confined) as pool:
        run = mutate(problem, pool, args.max, log=log)
    if args.format == "json":
        print(json.dumps(run.as_json(), indent=1))
    else:
        sys.stdout.write(render_text(run, problem.reference))
    return EXIT_NOT_ACCEPTED if run.below_floor else EXIT_OK


def add_commands(sub: Any, lang: str = "en") -> None:
    """Add the author tools to ``judge``'s subcommands (``sub``, from ``add_subparsers``); their help is English in
    every ``lang`` (docs/practising.md)."""
    statement = add_command(sub, "statement", cmd_statement, "render a problem statement")
    statement.add_argument("slug")
    statement.add_argument("--format", choices=("markdown", "html", "text"), default="markdown")
    statement.add_argument("--lang", choices=("en", "zh"), default="en")
    statement.add_argument("--output", type=Path)

    new = add_command(sub, "new", cmd_new,
                      "author: start a new problem package and its reference stub (in ./problems or $JUDGE_PROBLEMS)")
    new.add_argument("slug", help="the new problem's name: lowercase words joined by hyphens")

    gen = add_command(sub, "gen", cmd_gen, "author: compute expected values with the reference and reject fragile cases")
    gen.add_argument("slug")
    gen.add_argument("--dry-run", action="store_true", help="check and report, write nothing")
    gen.add_argument("--kill", metavar="MUTANT", help="add the hidden case that kills this surviving mutant "
                                                      "(an id from 'judge mutate')")
    gen.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                     help="compute the expectations of this device (cuda: float32 on the GPU, TF32 off)")

    verify = add_command(sub, "verify", cmd_verify, "author: check problem packages and judge their declared submissions")
    verify.add_argument("slugs", nargs="*", help="problems to verify (default: all)")
    verify.add_argument("--no-submissions", action="store_true", help="skip judging declared submissions (and mutants)")
    verify.add_argument("--no-mutation", action="store_true",
                        help="skip judging the reference's mutants (the mutation score and its floor)")
    verify.add_argument("--recompute", action="store_true",
                        help="judge the mutants again even where a record of an unchanged problem is kept")
    verify.add_argument("--jobs", type=positive("bad_jobs"), help="problems verified at once (default: one per core)")
    verify.add_argument("--warnings", action="store_true",
                        help="also list the author warnings (without it they are only counted)")
    verify.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                        help="judge the declared submissions on this device (cuda: against the CUDA expectations)")

    mutate = add_command(sub, "mutate", cmd_mutate,
                         "author: judge one-mistake mutants of the reference against the cases: which survive")
    mutate.add_argument("slug", help="the problem, e.g. dead-relu-detector")
    mutate.add_argument("--max", type=positive("bad_max"), help="judge at most this many mutants, spread over the reference")
    mutate.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    mutate.add_argument("--jobs", type=positive("bad_jobs"), help="mutants judged at once (default: one per core)")
    mutate.add_argument("--confined", action="store_true",
                        help="judge every mutant in confined workers, none in the fast unconfined process")
