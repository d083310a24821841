"""``judge verify``: check that problem packages are sound and that their declared submissions get their verdicts.

For every problem: the metadata and every case file validate; every case has CPU expectations and a checksum
that matches what this machine builds; the reference solution, recomputed here, agrees with every stored
expected value under the problem's comparison and passes ``judge gen``'s fragility checks (their warnings
too: near-threshold values, weakly compared small values); the starter compiles; every statement template
renders; every pitfall has a declared wrong submission; every hinted pitfall departs from the reference on
some sample case (else its hint could never show) and the stored ``mistakes`` agree with its declared
submission. Then every declared submission is judged through the real judge, by warm workers forked from one
zygote (:mod:`judge.worker.forkserver`), and must get the verdict its folder names; a case where the reference
uses more than half of its CPU-time limit, or a declared accepted submission more than half of its CPU-time or
memory limit, is a warning.

Every problem found is reported, in every package, not only the first; the run fails when any is an error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from judge import messages
from judge.author.fragility import ERROR
from judge.author.generate import check_case, mistake_outputs, same_outputs
from judge.author.mutation_check import MutationCheck
from judge.author.reference import load_mistakes, load_reference
from judge.errors import JudgeError
from judge.judging.limits import reference_times
from judge.judging.submission import Plan, make_plan, read_submission
from judge.package.build import build_objects, checksum
from judge.package.cases import Case
from judge.package.problem import Problem, available, find_problem
from judge.package.statement import render_markdown
from judge.pipeline import Judge
from judge.worker.forkserver import Zygote

Log = Callable[[str], None]
NEAR_LIMIT_SHARE = 0.5
"""a case that uses more than this share of a limit is a warning: on a slower machine it may not fit"""


@dataclass
class Tally:
    """What one problem's checks found, printed as they are found."""

    log: Log
    errors: int = 0
    warnings: int = 0

    def error(self, text: str) -> None:
        self.errors += 1
        self.log(text)

    def warning(self, text: str) -> None:
        self.warnings += 1
        self.log(messages.say("verify_warning", text=text))


def _check_mistakes(problem: Problem, case: Case, mistakes: dict[str, Any], tally: Tally) -> None:
    outputs = mistake_outputs(mistakes, case, case.outputs("cpu"), problem)
    fresh = {(m["pitfall"], m["call"]): m["output"] for m in outputs}
    stored = {(m.pitfall, m.call): m.output for m in case.mistakes}
    for key in sorted(set(fresh) | set(stored)):
        if key not in fresh or key not in stored or same_outputs([stored[key]], [fresh[key]], problem) is not None:
            tally.error(messages.say("verify_mismatch", case=case.path, field=f"mistakes {key[0]} call {key[1]}",
                                     stored=stored.get(key, "nothing"), got=fresh.get(key, "nothing")))


def _check_case(problem: Problem, module: Any, case: Case, tally: Tally) -> None:
    if case.outputs("cpu") is None or not case.build_sha256:
        tally.error(messages.say("no_expected", path=case.path, device="cpu", slug=problem.slug))
        return
    built = checksum(build_objects(case.objects))
    if built != case.build_sha256:
        tally.error(messages.say("verify_mismatch", case=case.path, field="build_sha256",
                                 stored=case.build_sha256[:12], got=built[:12]))
        return
    checked = check_case(problem, module, case)
    for finding in checked.findings:
        (tally.error if finding.severity == ERROR else tally.warning)(f"{case.path}: {finding}")
    for index, (want, got) in enumerate(zip(case.outputs("cpu"), checked.expected or [])):
        where = same_outputs([want], [got], problem)
        if where is not None:
            field = f"expected.cpu.outputs[{index}]{where.removeprefix('[0]')}"
            tally.error(messages.say("verify_mismatch", case=case.path, field=field, stored=want, got=got))


def _check_cases(problem: Problem, tally: Tally) -> None:
    module = load_reference(problem)
    mistakes = load_mistakes(problem)
    for case in problem.cases:
        _check_case(problem, module, case, tally)
        if not case.hidden and case.outputs("cpu") is not None:
            _check_mistakes(problem, case, mistakes, tally)


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
                tally.error(str(exc))
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
            if limit and used > NEAR_LIMIT_SHARE * limit:
                tally.warning(messages.say("verify_near_limit", path=path, case=extra["case"], used=used,
                                           limit=limit, what=what))


class Workers:
    """One warm zygote for the whole run, replaced if it dies: each declared submission is a fork of it."""

    def __init__(self) -> None:
        self.zygote: Zygote | None = None

    def judge(self, plan: Plan) -> Judge:
        if self.zygote is None or not self.zygote.alive:
            self.close()
            self.zygote = Zygote(plan.device)
        return Judge(plan, self.zygote.launch, self.zygote.level)

    def close(self) -> None:
        if self.zygote is not None:
            self.zygote.close()
            self.zygote = None


def _check_declared(problem: Problem, workers: Workers, tally: Tally, device: str) -> None:
    plan = make_plan(problem, "submit", device)
    times = reference_times(problem, device)
    for case, limits in zip(plan.cases, plan.limits):
        if times[case.id] > NEAR_LIMIT_SHARE * limits.cpu_s:
            tally.warning(messages.say("verify_near_limit", path=problem.reference, case=case.id,
                                       used=round(times[case.id], 3), limit=round(limits.cpu_s, 3), what="CPU-time"))
    judge = None
    for declared in problem.declared_submissions():
        if judge is None or workers.zygote is None or not workers.zygote.alive:
            judge = workers.judge(plan)
        report = judge.judge(declared.path, read_submission(declared.path))
        if report["verdict"] != declared.verdict:
            tally.error(messages.say("verify_declared", path=declared.path, declared=declared.verdict,
                                     got=report["verdict"]))
            continue
        tally.log(messages.say("verify_ok", verdict=declared.verdict, name=declared.path.name))
        if declared.verdict == "accepted":
            _near_limits(declared.path, report, tally)


def _verify_one(slug: str, declared: bool, workers: Workers, log: Log, device: str,
                mutation: MutationCheck | None = None) -> Tally:
    log(messages.say("verify_start", slug=slug))
    tally = Tally(log)
    try:
        problem = find_problem(slug)
        problem.cases  # noqa: B018 -- loads and validates every case file once, before the checks read them
    except JudgeError as exc:
        tally.error(str(exc))
        return tally
    steps = [_check_package, _check_cases] + ([lambda p, t: _check_declared(p, workers, t, device)] if declared else [])
    steps += [mutation] if mutation is not None else []
    for step in steps:
        try:
            step(problem, tally)
        except JudgeError as exc:
            tally.error(str(exc))
    return tally


def verify(slugs: list[str] | None = None, declared: bool = True, log: Log = print, device: str = "cpu",
           mutation: bool = True) -> bool:
    """Check every problem named (default: every one found) and log every finding; True when none is an error.

    Declared submissions are judged on ``device`` against that device's expectations (the CPU ones where a case
    has none, as ``judge submit`` does); then, unless ``mutation`` is off, the reference's mutants are
    (:mod:`judge.author.mutation_check`). Without ``declared`` nothing is judged, mutants neither."""
    chosen = slugs or available()
    failed, errors, warnings = 0, 0, 0
    workers = Workers()
    mutants = MutationCheck(device) if declared and mutation else None
    try:
        for slug in chosen:
            tally = _verify_one(slug, declared, workers, log, device, mutants)
            log(messages.say("verify_result", slug=slug, result="FAILED" if tally.errors else "ok"))
            failed, errors, warnings = failed + bool(tally.errors), errors + tally.errors, warnings + tally.warnings
    finally:
        workers.close()
        if mutants is not None:
            mutants.close()
    log(messages.say("verify_summary", problems=len(chosen), failed=failed, errors=errors, warnings=warnings))
    return not failed
