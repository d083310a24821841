"""The flows of ``judge grade`` (a folder of submissions) and ``judge merge`` (the outputs of its shards)."""

from __future__ import annotations

import dataclasses
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge import messages
from judge.errors import BadInput
from judge.grading.audit import check_stored, report_fault, summary_fault
from judge.grading.discover import Loaded, Skipped, discover, load
from judge.grading.progress import Progress
from judge.grading.render import write_outputs
from judge.grading.schedule import run_slots
from judge.grading.shard import Shard
from judge.grading.store import Store, judge_key, read_stored, with_grading
from judge.grading.summary import ClassSummary, summarise
from judge.judging.plan import make_plan
from judge.package.problem import Problem
from judge.report.build import coarsened
from judge.report.render import render
from judge.worker import probe


@dataclass(frozen=True)
class Graded:
    summary: ClassSummary
    index: Path
    """the overview page"""
    judged: int
    """submissions judged by this run"""
    reused: int
    """submissions whose stored result still held"""
    seconds: float


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during grading, with how much is saved (a re-run judges the rest)."""

    def __init__(self, saved: int, total: int):
        super().__init__()
        self.saved, self.total = saved, total


def check_confinement(device: str, allow_weak: bool) -> None:
    """Refuse to grade where the workers cannot keep the hidden cases secret, unless the instructor said so
    (every report then says the level did not protect them)."""
    confined = probe.confinement(device)
    if not confined.keeps_secrets and not allow_weak:
        raise BadInput("weak_sandbox", level=confined.level)


@dataclass(frozen=True)
class Figures:
    """What the class files show besides verdicts."""

    points: float | None = None
    """what the problem is worth (None: one point per hidden case)"""
    exact: bool = False
    """hidden cases' figures exact in every file this run writes: for instructors only (``--exact-figures``)"""
    csv_bom: bool = False
    lang: str = "en"
    """the language of the overview and the gradebook's feedback, and of the reports this run judges
    (``--lang``; a stored result judged in another language is judged again)"""


def _shown(store: Store, reports: list[dict[str, Any]], exact: bool) -> list[dict[str, Any]]:
    """The stored reports as the class files show them: the instructor's exact copies where asked and kept."""
    return [store.load_exact(r["grading"]["student"]) or r for r in reports] if exact else reports


def _write(out: Path, store: Store, problem: Problem | _Named, shard: Shard | None, reports: list[dict[str, Any]],
           figures: Figures, skipped: list[Skipped], missing: int = 0) -> tuple[ClassSummary, Path]:
    shown = _shown(store, reports, figures.exact)
    title = problem.title_in(figures.lang) if isinstance(problem, Problem) else problem.title
    summary = summarise(problem.slug, title, str(shard) if shard else None, shown, missing,
                        points=figures.points, skipped=skipped, exact=figures.exact)
    return summary, write_outputs(out, summary, shown, figures.csv_bom, figures.lang)


def grade_folder(problem: Problem, submissions: Path, out: Path, *, jobs: int, device: str, shard: Shard | None,
                 progress: Progress, allow_weak: bool = False, figures: Figures = Figures(),
                 every_entry: bool = False) -> Graded:
    started = time.monotonic()
    check_confinement(device, allow_weak)
    discovered = discover(submissions, problem.slug, skip=out, every_entry=every_entry, lang=figures.lang)
    found = [s for s in discovered.submissions if shard is None or shard.holds(s.student)]
    store = Store(out)
    plan = make_plan(problem, "submit", device)
    key, run = judge_key(plan, figures.lang), uuid.uuid4().hex[:12]
    loaded = [load(s, submissions, figures.lang) for s in found]
    todo = [item for item in loaded if store.current(item, key) is None]

    def save(item: Loaded, report: dict[str, Any]) -> None:  # judged exactly: the learner's copy is coarsened
        exact = with_grading(report, item, key, run, submissions)
        store.save(coarsened(exact), exact)

    try:
        run_slots(plan, todo, jobs, save, progress, figures.lang)
    except KeyboardInterrupt:
        reports = [r for item in loaded if (r := store.current(item, key)) is not None]
        _write(out, store, problem, shard, reports, figures, discovered.skipped,
               len(loaded) - len(reports))  # what is judged so far, marked incomplete
        raise Interrupted(len(reports), len(loaded)) from None
    reports = [store.load(s.student) for s in found]
    summary, index = _write(out, store, problem, shard, reports, figures, discovered.skipped)
    return Graded(summary, index, len(todo), len(loaded) - len(todo), time.monotonic() - started)


def _graded_folder(folder: Path) -> dict[str, Any]:
    meta = read_stored(folder / "summary.json")
    if not isinstance(meta, dict) or not {"problem", "shard", "students"} <= meta.keys():
        raise BadInput("merge_not_graded", path=folder)
    fault = summary_fault(meta)
    if fault:
        raise BadInput("merge_malformed_summary", path=folder / "summary.json", what=fault)
    return meta


def _stored_shard(folder: Path, text: object) -> Shard | None:
    """The shard a summary says it holds (None: the whole class); anything but what ``--shard`` wrote is refused."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise BadInput("merge_not_graded", path=folder)
    try:
        return Shard.parse(text)
    except BadInput:
        raise BadInput("merge_not_graded", path=folder) from None


def _check_shards(parts: list[tuple[Path, dict[str, Any]]]) -> None:
    """Shards of one split, each once and none missing; folders that are not shards are whole classes."""
    first, meta = parts[0]
    other = _stored_shard(first, meta["shard"])
    seen: dict[int, Path] = {}
    for folder, part in parts:
        if part["problem"]["slug"] != meta["problem"]["slug"]:
            raise BadInput("merge_other_problem", path=folder, slug=part["problem"]["slug"], first=first,
                           other=meta["problem"]["slug"])
        shard = _stored_shard(folder, part["shard"])
        if (shard is None) != (other is None) or shard and shard.count != other.count:
            raise BadInput("merge_other_split", path=folder, shard=part["shard"] or "-", first=first,
                           other=meta["shard"] or "-")
        if shard and shard.index in seen:
            raise BadInput("merge_duplicate_shard", shard=shard, first=seen[shard.index], second=folder)
        if shard:
            seen[shard.index] = folder
    count = other.count if other else 0
    missing = [k for k in range(1, count + 1) if k not in seen]
    if missing:
        raise BadInput("merge_missing_shards", missing=missing[0], count=count)


def _skipped(parts: list[tuple[Path, dict[str, Any]]]) -> list[Skipped]:
    """The entries every part skipped (shards of one folder skip the same ones), each once."""
    named = {entry.get("entry"): entry.get("reason", "") for _, meta in parts for entry in meta.get("skipped", [])
             if isinstance(entry, dict)}
    return [Skipped(str(name), str(reason)) for name, reason in named.items()]


def _points(parts: list[tuple[Path, dict[str, Any]]], asked: float | None) -> float | None:
    """What the merged problem is worth: as asked, else what the parts said, which must agree."""
    if asked is not None:
        return asked
    (first, meta), *others = parts
    for folder, part in others:
        if part.get("points") != meta.get("points"):
            raise BadInput("merge_other_points", path=folder, points=part.get("points"), first=first,
                           other=meta.get("points"))
    return meta.get("points")


def merge_folders(folders: list[Path], out: Path, figures: Figures = Figures()) -> tuple[ClassSummary, Path]:
    """One class summary from the outputs of several ``judge grade`` runs (shards, or separate groups)."""
    parts = [(folder, _graded_folder(folder)) for folder in folders]
    _check_shards(parts)
    figures = dataclasses.replace(figures, points=_points(parts, figures.points))
    store, owner, reports, judged_by = Store(out), {}, [], None
    for folder, meta in parts:
        if meta.get("incomplete"):
            raise BadInput("merge_interrupted", path=folder, missing=meta["incomplete"])
        source = Store(folder)
        for row in meta["students"]:
            student = row["student"]
            if student in owner:
                raise BadInput("merge_conflict", student=student, first=owner[student], second=folder)
            owner[student] = folder
            if source.folder(student).is_symlink():  # its result would be read from outside the shard
                raise BadInput("merge_malformed_result", path=folder, student=student, what=messages.Said("merge_what_link"))
            report = source.load(student)
            if report is None:
                raise BadInput("merge_incomplete", path=folder, student=student)
            exact = source.load_exact(student)
            for stored in (report, exact) if exact is not None else (report,):
                _check_shown(stored, student, folder)
            check_stored(report, row, folder)
            grading = report.get("grading")
            key = grading.get("judge_key") if isinstance(grading, dict) else None
            judged_by = judged_by or (key, folder)
            if key != judged_by[0]:  # a merged class is judged by one plan: the same cases, limits and judge
                raise BadInput("merge_other_cases", path=folder, student=student, first=judged_by[1])
            if source.folder(student).resolve() != store.folder(student).resolve():
                store.save(report, exact)
            reports.append(report)
    problem = parts[0][1]["problem"]
    return _write(out, store, _Named(problem["slug"], problem["title"]), None, reports, figures, _skipped(parts))


def _check_shown(report: dict[str, Any], student: str, folder: Path) -> None:
    """A stored result that has the shape ``judge grade`` writes, down to what its page shows (whatever else an
    edit put there, the page must render: it is what the class view links to)."""
    fault: str | messages.Said | None = report_fault(report, student)
    if fault is None:
        try:
            render(report, "html")
        except Exception:  # noqa: BLE001 -- an edited file may fail the templates in any way (a missing key, a
            fault = messages.Said("merge_what_page")  # value nested past the stack): bad input, not a bug here
    if fault:
        raise BadInput("merge_malformed_result", path=folder, student=student, what=fault)


@dataclass(frozen=True)
class _Named:
    """A problem as a merged summary names it (its package need not be here)."""

    slug: str
    title: str
