"""The command line of grading a class: ``judge grade`` and ``judge merge``.

:func:`add_commands` adds them to ``judge``'s parser; everything heavier is imported when a command runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judge import messages
from judge.command import add_command, positive
from judge.errors import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, BadInput
from judge.machine import usable_cores
from judge.package.problem import find_problem
from judge.report.escape import inline, visible

if TYPE_CHECKING:
    from judge.grading.run import Figures
    from judge.grading.summary import ClassSummary


def _print_class(summary: ClassSummary, index: Path) -> None:
    print(" · ".join(f"{verdict} {count}" for verdict, count in summary.verdicts.items()))
    if summary.skipped:
        count = len(summary.skipped)
        names = ", ".join(inline(s.entry) for s in summary.skipped[:5]) + (", …" if count > 5 else "")
        print(messages.say("grade_skipped", count=count, plural="y" if count == 1 else "ies",
                           verb="is" if count == 1 else "are", names=names))
    print(visible(messages.say("grade_outputs", index=index)))


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
    progress = Line(sys.stdout) if sys.stdout.isatty() else Silent()
    try:
        graded = grade_folder(problem, args.submissions, args.out, jobs=jobs, device=args.device, shard=shard,
                              progress=progress, allow_weak=args.allow_weak_sandbox, figures=_figures(args),
                              every_entry=args.every_entry)
    except Interrupted as exc:
        print(f"judge: {messages.say('grade_interrupted', saved=exc.saved, total=exc.total)}", file=sys.stderr)
        return EXIT_INTERRUPTED
    print(messages.say("grade_done", total=len(graded.summary.rows), slug=problem.slug, judged=graded.judged,
                       reused=graded.reused, seconds=graded.seconds))
    _print_class(graded.summary, graded.index)
    failed = graded.summary.verdicts.get("internal_error", 0)
    if failed:
        print(f"judge: {messages.say('grade_internal', count=failed)}", file=sys.stderr)
        return EXIT_INTERNAL
    return EXIT_OK


def cmd_merge(args: argparse.Namespace) -> int:
    from judge.grading.run import merge_folders

    summary, index = merge_folders(args.folders, args.out, _figures(args))
    print(messages.say("merge_done", total=len(summary.rows), folders=len(args.folders)))
    _print_class(summary, index)
    return EXIT_OK


def add_commands(sub: Any) -> None:
    """Add ``grade`` and ``merge`` to ``judge``'s subcommands (``sub``, from ``add_subparsers``)."""
    grade = add_command(sub, "grade", cmd_grade,
                        "instructor: judge a folder of submissions in parallel, with per-student and class reports")
    grade.add_argument("slug", help="the problem, e.g. training-diagnostics")
    grade.add_argument("submissions", type=Path,
                       help="a folder of .py files, or of one folder per student (the student id is the name)")
    grade.add_argument("--out", type=Path, required=True,
                       help="where results go; re-running with the same folder judges only what is new or changed")
    grade.add_argument("--jobs", type=positive("bad_jobs"), help="submissions judged at once (default: one per core)")
    grade.add_argument("--shard", metavar="K/N", help="judge only the K-th of N deterministic slices (for job arrays); "
                       "auto: slice (index mod N) + 1 of --shards N, the index from a Slurm array task or a "
                       "Kubernetes Indexed Job")
    grade.add_argument("--shards", metavar="N", help="with --shard auto: how many slices (the size of the array, "
                       "written in the job file)")
    grade.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="where the workers run (default: cpu)")
    grade.add_argument("--allow-weak-sandbox", action="store_true",
                       help="grade even where the workers cannot keep hidden cases secret (see 'judge doctor')")
    grade.add_argument("--every-entry", action="store_true",
                       help="judge every file of the folder as a submission, not only .py files and folders (names "
                            "starting with . or __ stay skipped)")
    merge = add_command(sub, "merge", cmd_merge,
                        "instructor: combine the outputs of 'judge grade --shard' runs into one class summary")
    merge.add_argument("folders", type=Path, nargs="+", help="the --out folders of 'judge grade' runs (e.g. shards)")
    merge.add_argument("--out", type=Path, required=True, help="where the combined results and summary go")
    for p in (grade, merge):
        p.add_argument("--csv-bom", action="store_true",
                       help="start summary.csv with a UTF-8 byte order mark, so that Excel reads non-ASCII names")
        p.add_argument("--points", type=float,
                       help="what the problem is worth, shared by its hidden cases (default: one per hidden case)")
        p.add_argument("--lang", choices=tuple(messages.LANGUAGES), default="en",
                       help="the language of the class overview and the gradebook's feedback, and of the students' "
                            "reports judged by this run (default: en)")
        p.add_argument("--exact-figures", action="store_true",
                       help="instructor: hidden cases' CPU time and memory exact in every file written (each "
                            "report.html too); students' results.json stay coarse. Not for students' eyes")
