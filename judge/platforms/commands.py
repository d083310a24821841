"""The command line of the platform front ends: ``judge export`` and ``judge autograde``.

:func:`add_commands` adds them to ``judge``'s parser; everything heavier is imported when a command runs.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path
from typing import Any

from judge import messages
from judge.command import line
from judge.errors import EXIT_INTERNAL, EXIT_NOT_ACCEPTED, EXIT_OK, BadInput, JudgeError
from judge.platforms.config import DEFAULT_IMAGE, PLATFORMS, VISIBILITIES
from judge.report.escape import visible


def cmd_export(args: argparse.Namespace) -> int:
    from judge.platforms import export

    if args.platform == "gradescope":
        out = export.export_gradescope(args.slugs, args.out or Path("autograder.zip"), points=args.points,
                                       visibility=args.hidden_visibility, leaderboard=args.leaderboard,
                                       cooldown_minutes=args.cooldown, allow_weak_sandbox=args.allow_weak_sandbox,
                                       wheelhouse=args.wheelhouse)
    else:
        out = export.export_prairielearn(args.slugs, args.out or Path("prairielearn"), points=args.points,
                                         image=args.image, timeout_s=args.timeout,
                                         allow_weak_sandbox=args.allow_weak_sandbox, wheelhouse=args.wheelhouse)
    print(line("en", f"export_done_{args.platform}", out=out, count=len(args.slugs)))
    return EXIT_OK


def _setup(export: Any) -> int:
    """An image's build step: the sandbox must keep secrets (or be allowed not to), and every problem is
    calibrated now, into the image."""
    from judge.package.problem import find_problem
    from judge.platforms import engine
    from judge.worker import cgroup, probe

    confined = probe.confinement()
    if not confined.keeps_secrets and not export.allow_weak_sandbox:
        print(f"judge: {messages.say('autograde_weak', level=confined.level)}", file=sys.stderr)
        return EXIT_NOT_ACCEPTED
    box = cgroup.box()
    print(messages.say("autograde_box", memory=f"{box.memory_bytes >> 20} MiB" if box.memory_bytes else "no limit",
                       cpus=f"{box.cpus:g}" if box.cpus else "no quota"))
    for exported in export.problems:
        low, high, memory = engine.calibrate(find_problem(exported.slug))
        print(messages.say("autograde_calibrated", slug=exported.slug, low=low, high=high, memory=memory))
    return EXIT_OK


def cmd_autograde(args: argparse.Namespace) -> int:
    from judge.platforms import gradescope, prairielearn
    from judge.platforms.autograde import ROOTS, Layout, Results, autograde, use_private_tests
    from judge.platforms.config import Export

    export = Export.read(args.config)
    if export.platform != args.platform:
        raise BadInput("autograde_other_platform", path=args.config, platform=export.platform, asked=args.platform)
    if args.setup:
        return _setup(export)
    root = args.root or ROOTS[args.platform]
    use_private_tests(args.platform, root)
    try:
        found = autograde(export, root, args.problem, log=lambda text: print(visible(text)))
    except Exception as exc:  # noqa: BLE001 -- the student gets a results file that says the judge failed
        print(visible(traceback.format_exc()), end="")  # stdout is the instructor's; the names in it are data
        platform = gradescope if args.platform == "gradescope" else prairielearn
        reason = str(exc) if isinstance(exc, JudgeError) else f"{type(exc).__name__}: {exc}"
        Results(Layout.of(args.platform, root).results).write(
            platform.refused(messages.say("autograde_failed", reason=reason)))
        return exc.exit_code if isinstance(exc, JudgeError) else EXIT_INTERNAL
    print(line("en", "autograde_written", path=Layout.of(args.platform, root).results, score=found.get("score", 0.0)))
    return EXIT_OK


def add_commands(sub: Any, lang: str = "en") -> None:
    """Add ``export`` and ``autograde`` to ``judge``'s subcommands (``sub``, from ``add_subparsers``); their help is
    English in every ``lang`` (instructors' and platforms' commands: docs/practising.md)."""
    export = sub.add_parser("export", help="instructor: write a Gradescope autograder or PrairieLearn questions",
                            description="instructor: write a Gradescope autograder or PrairieLearn questions")
    platforms = export.add_subparsers(dest="platform", required=True, parser_class=type(export))
    made = {
        "gradescope": platforms.add_parser("gradescope", help="an autograder zip (setup.sh, run_autograder, wheel)"),
        "prairielearn": platforms.add_parser("prairielearn", help="questions and a grader image definition"),
    }
    for name, parser in made.items():
        parser.set_defaults(handler=cmd_export)
        parser.add_argument("slugs", nargs="+", metavar="SLUG", help="the problems to export")
        parser.add_argument("--out", type=Path, help="where to write it (default: autograder.zip / prairielearn/)")
        parser.add_argument("--points", type=float,
                            help="what each problem's hidden cases are worth together (default: 1 per hidden case)")
        parser.add_argument("--wheelhouse", type=Path, metavar="DIR",
                            help="bundle these wheels (torch and every dependency: 'pip download' or 'pip wheel' "
                                 "them) so setup.sh installs offline, with no index")
        parser.add_argument("--allow-weak-sandbox", action="store_true",
                            help="judge even where the workers cannot keep hidden cases secret (see 'judge doctor')")
    made["gradescope"].add_argument("--hidden-visibility", choices=VISIBILITIES, default="after_due_date",
                                    help="when students see the hidden cases' verdicts (default: after_due_date)")
    made["gradescope"].add_argument("--leaderboard", action="store_true",
                                    help="add leaderboard entries (hidden cases passed, CPU time)")
    made["gradescope"].add_argument("--cooldown", type=float, default=0.0, metavar="MINUTES",
                                    help="keep the last results for a submission made sooner than this after it")
    made["prairielearn"].add_argument("--image", default=DEFAULT_IMAGE,
                                      help=f"the grader image's name in your registry (default: {DEFAULT_IMAGE})")
    made["prairielearn"].add_argument("--timeout", type=int, default=120,
                                      help="seconds PrairieLearn gives one grading job (default: 120, at most 600)")
    run = sub.add_parser("autograde", help="platform: judge the submission a platform put here and write its results",
                         description="platform: judge the submission a platform put here and write its results "
                                     "(run by the exported run_autograder / grade scripts)")
    run.set_defaults(handler=cmd_autograde)
    run.add_argument("platform", choices=PLATFORMS)
    run.add_argument("--config", type=Path, required=True, help="the export.json written by 'judge export'")
    run.add_argument("--root", type=Path, help="the platform's folder (default: /autograder, or /grade)")
    run.add_argument("--problem", help="the problem to judge, of several exported (PrairieLearn: the question's)")
    run.add_argument("--setup", action="store_true", help="build step: check the sandbox, calibrate every problem")
