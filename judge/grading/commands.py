"""The command line of grading a class: ``judge grade`` and ``judge merge``.

:func:`add_commands` adds them to ``judge``'s parser; everything heavier is imported when a command runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judge import messages
from judge.command import add_command, add_lang, line, positive
from judge.errors import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, BadInput
from judge.machine import usable_cores
from judge.package.problem import find_problem
from judge.report.escape import inline

if TYPE_CHECKING:
    from judge.grading.run import Figures
    from judge.grading.summary import ClassSummary


def _print_class(summary: ClassSummary, index: Path, lang: str) -> None:
    """The class's verdicts, what was skipped and where the class report is, in ``lang``."""
    from judge.report.build import verdict_name

    print(" · ".join(f"{verdict_name(lang, verdict)} {count}" for verdict, count in summary.verdicts.items()))
    if summary.skipped:
        count = len(summary.skipped)
        names = ", ".join(inline(s.entry) for s in summary.skipped[:5]) + (", …" if count > 5 else "")
        print(line(lang, "grade_skipped_one" if count == 1 else "grade_skipped", count=count, names=names))
    print(line(lang, "grade_outputs", index=index))


def _figures(args: argparse.Namespace) -> Figures:
    from judge.grading.run import Figures

    if args.points is not None and not args.points > 0:
        raise BadInput("bad_points", value=args.points)
    return Figures(args.points, args.exact_figures, args.csv_bom, args.lang)


def cmd_grade(args: argparse.Namespace) -> int:
    """Judge a class folder into ``--out``; 3 when the judge failed on some submission, 130 when interrupted."""
    from judge.grading.progress import Line, Silent
    from judge.grading.run import Interrupted, grade_folder
    from judge.grading.shard import Shard

    problem = find_problem(args.slug)
    shard = Shard.chosen(args.shard, args.shards)
    jobs = args.jobs or usable_cores()
    progress = Line(sys.stdout, args.lang) if sys.stdout.isatty() else Silent()
    try:
        graded = grade_folder(problem, args.submissions, args.out, jobs=jobs, device=args.device, shard=shard,
                              progress=progress, allow_weak=args.allow_weak_sandbox, figures=_figures(args),
                              every_entry=args.every_entry)
    except Interrupted as exc:
        print(f"judge: {messages.say_in(args.lang, 'grade_interrupted', saved=exc.saved, total=exc.total)}",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    print(messages.say_in(args.lang, "grade_done", total=len(graded.summary.rows), slug=problem.slug,
                          judged=graded.judged, reused=graded.reused, seconds=graded.seconds))
    _print_class(graded.summary, graded.index, args.lang)
    failed = graded.summary.verdicts.get("internal_error", 0)
    if failed:
        print(f"judge: {messages.say_in(args.lang, 'grade_internal', count=failed)}", file=sys.stderr)
        return EXIT_INTERNAL
    return EXIT_OK


def cmd_merge(args: argparse.Namespace) -> int:
    from judge.grading.run import merge_folders

    summary, index = merge_folders(args.folders, args.out, _figures(args))
    print(messages.say_in(args.lang, "merge_done", total=len(summary.rows), folders=len(args.folders)))
    _print_class(summary, index, args.lang)
    return EXIT_OK


def add_commands(sub: Any, lang: str = "en") -> None:
    """Add ``grade`` and ``merge`` to ``judge``'s subcommands (``sub``, from ``add_subparsers``), their help said in
    ``lang``."""
    def say(key: str) -> str:
        return messages.say_in(lang, key)

    grade = add_command(sub, "grade", cmd_grade, say("help_grade"))
    grade.add_argument("slug", help=say("help_slug"))
    grade.add_argument("submissions", type=Path, help=say("help_grade_submissions"))
    grade.add_argument("--out", type=Path, required=True, help=say("help_grade_out"))
    grade.add_argument("--jobs", type=positive("bad_jobs"), help=say("help_grade_jobs"))
    grade.add_argument("--shard", metavar="K/N", help=say("help_grade_shard"))
    grade.add_argument("--shards", metavar="N", help=say("help_grade_shards"))
    grade.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help=say("help_grade_device"))
    grade.add_argument("--allow-weak-sandbox", action="store_true", help=say("help_grade_weak"))
    grade.add_argument("--every-entry", action="store_true", help=say("help_grade_every_entry"))
    merge = add_command(sub, "merge", cmd_merge, say("help_merge"))
    merge.add_argument("folders", type=Path, nargs="+", help=say("help_merge_folders"))
    merge.add_argument("--out", type=Path, required=True, help=say("help_merge_out"))
    for p in (grade, merge):
        p.add_argument("--csv-bom", action="store_true", help=say("help_grade_csv_bom"))
        p.add_argument("--points", type=float, help=say("help_grade_points"))
        add_lang(p, lang, "help_grade_lang")
        p.add_argument("--exact-figures", action="store_true", help=say("help_grade_exact"))
