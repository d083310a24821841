"""``judge verify``: check that problem packages are sound and that their declared submissions get their verdicts.

For every problem: the metadata and every case file validate; every case has CPU expectations and a checksum
that matches what this machine builds; the reference solution, recomputed here, agrees with every stored
expected value under the problem's comparison and passes ``judge gen``'s fragility checks (their warnings
too: near-threshold values, weakly compared small values); no hidden case's expected output can be read before
it is asked for (:mod:`judge.author.leaks`); the starter compiles; every statement template renders; every
pitfall has a declared wrong submission; every hinted pitfall departs from the reference on some sample case
(else its hint could never show) and the stored ``mistakes`` agree with its declared submission. Then every
declared submission is judged as ``judge submit`` judges it (:func:`judge.pipeline.judge_guarded`), by warm
workers of one pool (:class:`judge.judging.pool.WorkerPool`; a module ``[worker] preload`` names that the warm
process cannot import is an error of the package), and must get the verdict its folder names; a case where the
reference uses more than half of its CPU-time limit, or a declared accepted submission more than half of its
CPU-time or memory limit, is a warning.

Every problem found is reported, in every package, not only the first, one line each with what to do; the run
fails when any is an error. Warnings are the author's advice and fail nothing: they are counted, and listed
only when asked (``--warnings``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from judge import messages
from judge.author import parallel
from judge.command import error_line
from judge.author.fragility import ERROR
from judge.author.generate import check_case, differing_leaves, same_outputs
from judge.author.leaks import find_leaks
from judge.author.mutation.mutation_check import MutationCheck
from judge.author.reference import load_mistakes, load_reference, mistake_paths
from judge.errors import JudgeError
from judge.judging.calibrate import reference_times
from judge.judging.pool import WorkerPool
from judge.judging.plan import make_plan
from judge.judging.submission import read_submission
from judge.machine import usable_cores
from judge.package.build import build_objects, checksum
from judge.package.cases import Case
from judge.package.problem import Problem, available, find_problem
from judge.package.statement import render_markdown
from judge.pipeline import Judge, Submitted, judge_guarded
from judge.worker import probe

Log = Callable[[str], None]
NEAR_LIMIT_SHARE = 0.5
"""a case that uses more than this share of a limit is a warning: on a slower machine it may not fit"""
SHORT = 60
"""characters of a value shown in a finding"""
NOTHING = object()


@dataclass
class Tally:
    """What one problem's checks found: errors printed as they are found, warnings only when asked for."""

    log: Log
    show_warnings: bool = False
    errors: int = 0
    warnings: int = 0

    def error(self, text: str) -> None:
        self.errors += 1
        self.log(messages.say("verify_error", text=text))

    def warning(self, text: str) -> None:
        self.warnings += 1
        if self.show_warnings:
            self.log(messages.say("verify_warning", text=text))


def shown(path: Any) -> str:
    """A path as short as it can be read: relative to the current folder when it lies inside it."""
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _short(value: Any) -> str:
    if value is NOTHING:
        return "nothing"
    text = repr(value)
    return text if len(text) <= SHORT else text[:SHORT - 3] + "..."


def _joined(what: str, path: str) -> str:
    """A leaf's path after what holds it: JSON-style after an index (``outputs[0][1]``, ``outputs[0].std``)."""
    if not what.endswith("]"):
        return f" · {path}"
    return path if path.startswith("[") else f".{path}"


def _mismatch(problem: Problem, case: Case, what: str, stored: Any, got: Any) -> str:
    """One line for a stored value this machine does not reproduce: the first leaf that differs, and its values."""
    differing = [] if NOTHING in (stored, got) else differing_leaves(stored, got, problem)
    more = len(differing) - 1 if differing else 0
    if differing:
        path, stored, got = differing[0]
        what += _joined(what, path)
    return messages.say("verify_mismatch", case=shown(case.path), field=what, stored=_short(stored), got=_short(got),
                        more=messages.say("verify_more", count=more) if more else "", slug=problem.slug)


def _check_mistakes(problem: Problem, case: Case, fresh_mistakes: list[dict[str, Any]], tally: Tally) -> None:
    fresh = {(m["pitfall"], m["call"]): m["output"] for m in fresh_mistakes}
    stored = {(m.pitfall, m.call): m.output for m in case.mistakes}
    for key in sorted(set(fresh) | set(stored)):
        if key not in fresh or key not in stored or same_outputs([stored[key]], [fresh[key]], problem) is not None:
            tally.error(_mismatch(problem, case, f"mistakes {key[0]} call {key[1]}", stored.get(key, NOTHING),
                                  fresh.get(key, NOTHING)))


def _check_case(problem: Problem, module: Any, mistakes: dict[str, Any], case: Case, tally: Tally) -> None:
    if case.outputs("cpu") is None or not case.build_sha256:
        tally.error(messages.say("no_expected", path=case.path, device="cpu", slug=problem.slug))
        return
    built = checksum(build_objects(case.objects))
    if built != case.build_sha256:
        tally.error(_mismatch(problem, case, "build_sha256", case.build_sha256[:12], built[:12]))
        return
    checked = check_case(problem, module, case, mistakes, hint_runs=False)  # H1 and other paths: judge gen's
    for finding in checked.findings:
        if finding.severity == ERROR:
            tally.error(messages.say("verify_fragile", case=shown(case.path), finding=finding, slug=problem.slug))
        else:
            tally.warning(f"{shown(case.path)}: {finding}")
    for index, (want, got) in enumerate(zip(case.outputs("cpu"), checked.expected or [])):
        if same_outputs([want], [got], problem) is not None:
            tally.error(_mismatch(problem, case, f"expected.cpu.outputs[{index}]", want, got))
    if not case.hidden and checked.expected is not None:
        _check_mistakes(problem, case, checked.mistakes, tally)


def _check_cases(problem: Problem, tally: Tally) -> None:
    module = load_reference(problem)
    mistakes = load_mistakes(mistake_paths(problem))
    for case in problem.cases:
        _check_case(problem, module, mistakes, case, tally)
    for leak in find_leaks(problem):
        tally.error(messages.say("verify_leak", leak=leak))


def _invalid(tally: Tally, path: Any, problem: str) -> None:
    tally.error(messages.say("problem_invalid", path=path, problem=problem))


def _check_package(problem: Problem, tally: Tally) -> None:
    try:
        compile(problem.starter.read_text(encoding="utf-8"), str(problem.starter), "exec")
    except (OSError, SyntaxError) as exc:
        _invalid(tally, problem.starter, f"the starter does not compile ({exc})")
    if not problem.samples:
        _invalid(tally, problem.root / "cases", "there are no sample cases")
    for lang in ("en", "zh"):
        if lang == "en" or problem.template(lang).exists():
            try:
                render_markdown(problem, lang)
            except JudgeError as exc:
                tally.error(error_line(exc, "en"))
    declared = problem.declared_submissions()
    if not any(d.verdict == "accepted" for d in declared):
        tally.warning(f"{problem.root / 'submissions'}: no declared accepted submission (add some under submissions/accepted/)")
    tagged = {s.pitfall for s in declared if s.pitfall}
    toml = problem.root / "problem.toml"
    for pitfall in problem.pitfalls:
        if pitfall["id"] not in tagged:
            _invalid(tally, toml, f"pitfall '{pitfall['id']}' has no declared wrong submission")
    shown = {m.pitfall for case in problem.samples for m in case.mistakes}
    for pitfall in sorted(set(problem.hints) - shown):
        _invalid(tally, toml, f"pitfall '{pitfall}' has a hint, but no sample case tells its declared submission apart "
                              "from the reference, so the hint can never show; add a sample call that does, then run 'judge gen'")
    for tag in sorted(tagged - {p["id"] for p in problem.pitfalls}):
        _invalid(tally, problem.root / "submissions", f"unknown pitfall tag '{tag}'")


def _near_limits(path: Any, report: dict[str, Any], tally: Tally) -> None:
    for test in report["tests"]:
        extra = test["extra_data"]
        for used, limit, what in ((extra["cpu_time_s"], extra["time_limit_s"], "CPU-time"),
                                  (extra["peak_memory_mb"], extra["memory_limit_mb"], "memory")):
            if limit and used is not None and used > NEAR_LIMIT_SHARE * limit:
                tally.warning(messages.say("verify_near_limit", path=path, case=extra["case"], used=used,
                                           limit=limit, what=what))


def _check_declared(problem: Problem, pool: WorkerPool, tally: Tally, device: str) -> None:
    plan = make_plan(problem, "submit", device)
    times = reference_times(problem, device)
    for case, limits in zip(plan.cases, plan.limits):
        if times[case.id] > NEAR_LIMIT_SHARE * limits.cpu_s:
            tally.warning(messages.say("verify_near_limit", path=problem.reference, case=case.id,
                                       used=round(times[case.id], 3), limit=round(limits.cpu_s, 3), what="CPU-time"))
    judge = Judge(plan, pool, exact=True)  # the author holds the hidden cases: their figures are checked
    for declared in problem.declared_submissions():
        report = judge_guarded(Submitted(declared.path, read_submission(declared.path)), judge)
        if report["judge"]["judge_error"]:  # the judge failed, not the submission: say how
            tally.error(report["judge"]["judge_error"])
        elif report["verdict"] != declared.verdict:
            tally.error(messages.say("verify_declared", path=shown(declared.path), declared=declared.verdict,
                                     got=report["verdict"], slug=problem.slug))
        else:
            tally.log(messages.say("verify_ok", verdict=declared.verdict, name=declared.path.name))
            if declared.verdict == "accepted":
                _near_limits(declared.path, report, tally)


def _verify_one(slug: str, pool: WorkerPool | None, log: Log, device: str, warnings: bool,
                mutation: MutationCheck | None = None) -> Tally:
    log(messages.say("verify_start", slug=slug))
    tally = Tally(log, warnings)
    try:
        problem = find_problem(slug)
        problem.cases  # noqa: B018 -- loads and validates every case file once, before the checks read them
    except JudgeError as exc:
        tally.error(error_line(exc, "en"))
        return tally
    judged = ([lambda p, t: _check_declared(p, pool, t, device)] if pool else []) + ([mutation] if mutation else [])
    steps = [_check_package, _check_cases] + (judged if problem.reference.is_file() else [])  # else said once, there
    for step in steps:
        try:
            step(problem, tally)
        except JudgeError as exc:
            tally.error(error_line(exc, "en"))
    return tally


def _result(tally: Tally) -> str:
    counts = [messages.say(key, count=n) for key, n in (("verify_errors", tally.errors),
                                                         ("verify_warnings", tally.warnings)) if n]
    return ("FAILED" if tally.errors else "ok") + (f" ({', '.join(counts)})" if counts else "")


@dataclass
class Verifier:
    """Verifies one problem at a time, in whichever process it is sent to (:mod:`judge.author.parallel`), with
    warm workers of its own, started for its first problem and kept until :meth:`close`."""

    device: str
    declared: bool
    mutation: bool
    recompute: bool
    warnings: bool
    mutant_slots: int | None = None
    pool: WorkerPool | None = field(default=None, init=False)
    mutants: MutationCheck | None = field(default=None, init=False)

    def __call__(self, slug: str, log: Log) -> tuple[int, int]:
        """Verify ``slug``, logging every line; its (errors, warnings)."""
        if self.declared and self.pool is None:
            self.pool = WorkerPool(probe.confinement(self.device))
            if self.mutation:
                self.mutants = MutationCheck(self.device, self.recompute, self.mutant_slots)
        tally = _verify_one(slug, self.pool, log, self.device, self.warnings, self.mutants)
        log(messages.say("verify_result", slug=slug, result=_result(tally)))
        return tally.errors, tally.warnings

    def close(self) -> None:
        for held in (self.pool, self.mutants):
            if held is not None:
                held.close()
        self.pool = self.mutants = None


def verify(slugs: list[str] | None = None, declared: bool = True, log: Log = print, device: str = "cpu",
           warnings: bool = False, mutation: bool = True, recompute: bool = False, jobs: int = 1) -> bool:
    """Check every problem named (default: every one found) and log every error, and every warning when
    ``warnings``; True when none is an error.

    Declared submissions are judged on ``device`` against that device's expectations (the CPU ones where a case
    has none, as ``judge submit`` does); then, unless ``mutation`` is off, the reference's mutants are
    (:mod:`judge.author.mutation.mutation_check`: an unchanged problem's kept result is reused, unless
    ``recompute``). Without ``declared`` nothing is judged, mutants neither. ``jobs`` problems are verified at
    once, each in a process of its own (:mod:`judge.author.parallel`); the lines read as one after another."""
    chosen = slugs or available()
    jobs = max(1, min(jobs, len(chosen)))
    verifier = Verifier(device, declared, mutation, recompute, warnings,
                        mutant_slots=max(1, usable_cores() // jobs) if jobs > 1 else None)
    tallies = parallel.each(chosen, verifier, jobs, log)
    failed = sum(errors > 0 for errors, _ in tallies)
    errors, warned = sum(e for e, _ in tallies), sum(w for _, w in tallies)
    log(messages.say("verify_summary", problems=len(chosen), failed=failed, errors=errors, warnings=warned))
    if failed:
        log(messages.say("verify_explain_failed"))
    if warned and not warnings:
        log(messages.say("verify_explain_warnings"))
    return not failed
