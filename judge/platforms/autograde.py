"""``judge autograde``: one submission, judged where a platform put it, its results written where it reads them.

Layout under the root (Gradescope ``/autograder``, PrairieLearn ``/grade``):

==================  =========================================  ==========================================
                    Gradescope                                 PrairieLearn
==================  =========================================  ==========================================
the student's files ``submission/``                            ``student/``
results             ``results/results.json``                   ``results/results.json`` (folder made here)
metadata            ``submission_metadata.json`` (cooldown)    --
problem, reference  the wheel's bundle                         ``tests/`` (the question's, private)
==================  =========================================  ==========================================

The student's file is the only ``.py`` file there, whatever its name (or, of several, the one named
``solution.py`` or ``<slug>.py``); an autograder of several problems wants one ``<slug>.py`` per problem. A
missing file is a compile error with the reason, never a missing results file.

**The results are the judge's alone.** The results folder is made root's and not writable by anyone else, and
the file is only ever replaced in one step (a temporary file renamed over it), so whatever happens it holds valid
JSON: before any judging it says the judge did not finish, after each case how far it got, and at the end the
results. The submission runs only in the judge's confined workers, which cannot write there (Landlock at L1 and
L2, and a uid of their own), and a file a submission managed to leave anywhere is replaced by the judge's.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from judge import messages
from judge.errors import BadInput
from judge.grading.discover import in_folder
from judge.grading.store import atomic_write
from judge.package.problem import find_problem
from judge.platforms import engine, gradescope, prairielearn
from judge.platforms.config import Export, Exported
from judge.report.escape import inline
from judge.settings import PROBLEMS, SOLUTIONS
from judge.worker import probe

ROOTS = {"gradescope": Path("/autograder"), "prairielearn": Path("/grade")}
STUDENT = {"gradescope": "submission", "prairielearn": "student"}
Log = Callable[[str], None]


@dataclass(frozen=True)
class Layout:
    submission: Path
    results: Path
    metadata: Path | None

    @classmethod
    def of(cls, platform: str, root: Path) -> Layout:
        metadata = root / "submission_metadata.json" if platform == "gradescope" else None
        return cls(root / STUDENT[platform], root / "results" / "results.json", metadata)


class Results:
    """The results file, owned and written by the judge alone."""

    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            os.chown(path.parent, 0, 0)
        path.parent.chmod(0o755)

    def write(self, results: dict[str, Any], durable: bool = True) -> None:
        atomic_write(self.path, json.dumps(results, indent=1, allow_nan=False) + "\n", durable)


def locate(folder: Path, slug: str, alone: bool) -> tuple[Path, str | None]:
    """The student's file for ``slug`` and None, or the folder and why no file there can be judged."""
    if not folder.is_dir():
        return folder, messages.say("autograde_no_folder", folder=folder)
    if alone:
        found = in_folder(folder, slug)
        return found.path, found.unjudgeable
    named = sorted(folder.rglob(f"{slug}.py"), key=lambda p: len(p.parts))
    return (named[0], None) if named else (folder, messages.say("autograde_no_named_file", name=f"{slug}.py"))


def _metadata(path: Path | None, log: Log) -> dict[str, Any] | None:
    if path is None or not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        log(messages.say("autograde_bad_metadata", path=inline(str(path)), reason=exc))
        return None


def use_private_tests(platform: str, root: Path) -> None:
    """PrairieLearn: the problems and their references come from the question's ``tests/`` folder (mounted at
    ``/grade/tests`` only while grading), searched before anything else; the public image holds none."""
    tests = root / "tests"
    if platform == "prairielearn" and (tests / "problems").is_dir():
        for setting, folder in ((PROBLEMS, tests / "problems"), (SOLUTIONS, tests / "solutions")):
            os.environ[setting.name] = os.pathsep.join([str(folder), *map(str, setting.folders())])


def autograde(export: Export, root: Path, slug: str | None, log: Log) -> dict[str, Any]:
    """Judge the submission under ``root`` and write its results; returns them."""
    platform = gradescope if export.platform == "gradescope" else prairielearn
    layout = Layout.of(export.platform, root)
    results = Results(layout.results)
    chosen = [export.problem(slug)] if slug else list(export.problems)
    if export.platform == "prairielearn" and len(chosen) != 1:
        raise BadInput("autograde_pick_problem", known=", ".join(p.slug for p in chosen))
    problems = [(exported, find_problem(exported.slug)) for exported in chosen]
    total = sum(len(problem.cases) for _, problem in problems)
    results.write(platform.unfinished(0, total))
    confined = probe.confinement()
    log(messages.say("autograde_level", level=confined.describe()))
    if not confined.keeps_secrets and not export.allow_weak_sandbox:
        found = platform.refused(messages.say("autograde_weak", level=confined.level))
        results.write(found)
        return found
    kept = gradescope.cooled_down(export, _metadata(layout.metadata, log)) if export.platform == "gradescope" else None
    if kept is not None:
        results.write(kept)
        return kept
    judged: list[tuple[Exported, dict[str, Any]]] = []
    done = 0
    for exported, problem in problems:
        path, reason = locate(layout.submission, exported.slug, len(chosen) == 1)
        shown = inline(str(path if reason is None else reason))  # the student's file names are data
        log(messages.say("autograde_judging", slug=exported.slug, path=shown))

        def progress(index: int, _result: object, before: int = done) -> None:
            results.write(platform.unfinished(before + index + 1, total), durable=False)

        report = engine.judge_submission(problem, path, reason, progress)
        done += len(problem.cases)
        log(messages.say("autograde_verdict", slug=exported.slug, verdict=report["verdict"], passed=report["passed"],
                         total=report["total"], seconds=report["execution_time"]))
        judged.append((exported, report))
    found = gradescope.results(export, judged) if export.platform == "gradescope" else prairielearn.results(*judged[0])
    results.write(found)
    return found
