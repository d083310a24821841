"""``judge verify``: check that problem packages are sound and that their declared submissions get their verdicts.

For every problem: the metadata and every case file validate; every case has CPU expectations and a checksum
that matches what this machine builds; the reference solution, recomputed here, agrees with every stored
expected value under the comparison rule; the starter compiles; every statement template renders; every
pitfall has a declared wrong submission; every hinted pitfall departs from the reference on some sample case
(else its hint could never show) and the stored ``mistakes`` agree with its declared submission. Then every
declared submission is judged through the real judge (``judge submit``) and must get the verdict its folder
names.
"""

from __future__ import annotations

from typing import Any, Callable

from judge import messages
from judge.errors import JudgeError
from judge.package.build import build_objects, checksum
from judge.package.cases import Case
from judge.package.generate import call_reference, load_mistakes, load_reference, mistake_outputs, same_outputs
from judge.package.problem import Problem, available, find_problem
from judge.package.statement import render_markdown

Log = Callable[[str], None]


def _check_mistakes(case: Case, mistakes: dict[str, Any], log: Log) -> bool:
    outputs = mistake_outputs(mistakes, case, case.outputs("cpu"))
    fresh = {(m["pitfall"], m["call"]): m["output"] for m in outputs}
    stored = {(m.pitfall, m.call): m.output for m in case.mistakes}
    for key in sorted(set(fresh) | set(stored)):
        if key not in fresh or key not in stored or same_outputs([stored[key]], [fresh[key]]) is not None:
            log(messages.say("verify_mismatch", case=case.path, field=f"mistakes {key[0]} call {key[1]}",
                             stored=stored.get(key, "nothing"), got=fresh.get(key, "nothing")))
            return False
    return True


def _check_cases(problem: Problem, log: Log) -> bool:
    ok = True
    solution = load_reference(problem).Solution()
    mistakes = load_mistakes(problem)
    for case in problem.cases:
        if case.outputs("cpu") is None or not case.build_sha256:
            log(messages.say("no_expected", path=case.path, device="cpu", slug=problem.slug))
            ok = False
            continue
        built = checksum(build_objects(case.objects))
        if built != case.build_sha256:
            log(messages.say("verify_mismatch", case=case.path, field="build_sha256", stored=case.build_sha256[:12],
                             got=built[:12]))
            ok = False
            continue
        stored, fresh = case.outputs("cpu"), call_reference(solution, case)
        for index, (want, got) in enumerate(zip(stored, fresh)):
            where = same_outputs([want], [got])
            if where is not None:
                field = f"expected.cpu.outputs[{index}]{where.removeprefix('[0]')}"
                log(messages.say("verify_mismatch", case=case.path, field=field, stored=want, got=got))
                ok = False
        if not case.hidden:
            ok = _check_mistakes(case, mistakes, log) and ok
    return ok


def _check_package(problem: Problem, log: Log) -> bool:
    ok = True
    try:
        compile(problem.starter.read_text(encoding="utf-8"), str(problem.starter), "exec")
    except (OSError, SyntaxError) as exc:
        log(messages.say("problem_invalid", path=problem.starter, problem=f"the starter does not compile ({exc})"))
        ok = False
    if not problem.samples:
        log(messages.say("problem_invalid", path=problem.root / "cases", problem="there are no sample cases"))
        ok = False
    for lang in ("en", "zh"):
        if lang == "en" or problem.template(lang).exists():
            render_markdown(problem, lang)
    declared = {s.pitfall for s in problem.declared_submissions() if s.pitfall}
    for pitfall in problem.pitfalls:
        if pitfall["id"] not in declared:
            log(messages.say("problem_invalid", path=problem.root / "problem.toml",
                             problem=f"pitfall '{pitfall['id']}' has no declared wrong submission"))
            ok = False
    shown = {m.pitfall for case in problem.samples for m in case.mistakes}
    for pitfall in sorted(set(problem.hints) - shown):
        log(messages.say("problem_invalid", path=problem.root / "problem.toml", problem=(
            f"pitfall '{pitfall}' has a hint, but no sample case tells its declared submission apart from the "
            "reference, so the hint can never show; add a sample call that does, then run 'judge gen'")))
        ok = False
    unknown = declared - {p["id"] for p in problem.pitfalls}
    for tag in sorted(unknown):
        log(messages.say("problem_invalid", path=problem.root / "submissions", problem=f"unknown pitfall tag '{tag}'"))
        ok = False
    return ok


def _check_declared(problem: Problem, log: Log) -> bool:
    from judge.judging.submission import judge_file

    ok = True
    for declared in problem.declared_submissions():
        report = judge_file(problem, declared.path, "submit", "cpu")
        if report["verdict"] != declared.verdict:
            log(messages.say("verify_declared", path=declared.path, declared=declared.verdict, got=report["verdict"]))
            ok = False
        else:
            log(f"ok  {declared.verdict:<22} {declared.path.name}")
    return ok


def verify(problems: list[Problem] | None = None, declared: bool = True, log: Log = print) -> bool:
    ok = True
    for problem in problems or [find_problem(slug) for slug in available()]:
        log(f"== {problem.slug}")
        try:
            sound = _check_package(problem, log) and _check_cases(problem, log)
            sound = sound and (not declared or _check_declared(problem, log))
        except JudgeError as exc:
            log(str(exc))
            sound = False
        log(f"{problem.slug}: {'ok' if sound else 'FAILED'}")
        ok = ok and sound
    return ok
