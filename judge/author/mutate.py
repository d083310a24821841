"""``judge mutate``: how many one-mistake mutants of the reference a problem's cases catch.

For a problem: every mutant of the reference solution (:mod:`judge.author.mutants`) is judged against the
problem's cases, samples then hidden, through warm workers (:mod:`judge.author.mutant_judge`), exactly as a
submission is. A mutant is

* ``killed`` by the first case it does not pass (any verdict but ``accepted``);
* ``equivalent`` when the author declared it so, with a reason, in ``[[mutation.equivalent]]`` of problem.toml,
  or when it passes every case and also every generated input (:mod:`judge.author.variants`: each case with
  fresh seeds and changed numbers), so no input this problem's cases can express tells it from the reference;
* ``survived`` when it passes every case but fails a generated input: the cases are too weak there, and the
  generated input, shrunk to the fewest changes that still kill it, is the case to add (``judge gen --kill``);
* ``error`` when the judge itself failed on it (``internal_error``).

The score is killed / (all - equivalent); ``[mutation] floor`` in problem.toml is the score ``judge verify``
requires. A declaration that names no mutant, or a mutant a case kills, is stale (reported by ``verify``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable

from judge import messages
from judge.author.mutant_judge import Kill, Pool, plan_for
from judge.author.mutants import Mutant, mutants, spread
from judge.author.reference import load_reference
from judge.author.variants import Change, Variant, applied, shrink, sound, variants
from judge.errors import BadInput, InternalError
from judge.judging.submission import Plan, make_plan
from judge.package.cases import Case
from judge.package.problem import Problem

KILLED, SURVIVED, EQUIVALENT, ERROR = "killed", "survived", "equivalent", "error"
STATUSES = (KILLED, SURVIVED, EQUIVALENT, ERROR)
Log = Callable[[str], None]


@dataclass(frozen=True)
class Settings:
    """``[mutation]`` of problem.toml."""

    floor: float | None = None
    """the lowest score ``judge verify`` accepts (None: the score is printed, not enforced)"""
    equivalent: dict[str, str] = field(default_factory=dict)
    """mutant id -> why it is equivalent to the reference"""


def settings(problem: Problem) -> Settings:
    """``[mutation]`` of ``problem``, checked: a malformed table is bad input naming the key."""
    table = problem.meta.get("mutation", {})

    def need(ok: bool, what: str) -> None:
        if not ok:
            raise BadInput("problem_invalid", path=problem.root / "problem.toml", problem=f"[mutation] {what}")

    need(isinstance(table, dict) and set(table) <= {"floor", "equivalent"}, "knows only floor and equivalent")
    floor = table.get("floor")
    need(floor is None or type(floor) in (int, float) and 0 <= floor <= 1, "floor: a score from 0 to 1, e.g. 1.0")
    declared = table.get("equivalent", [])
    need(isinstance(declared, list) and all(
        isinstance(d, dict) and set(d) == {"id", "reason"} and all(isinstance(v, str) and v for v in d.values())
        for d in declared), "equivalent: tables with a mutant 'id' and a 'reason', both non-empty strings")
    return Settings(None if floor is None else float(floor), {d["id"]: d["reason"] for d in declared})


@dataclass(frozen=True)
class Witness:
    """A generated input that kills a surviving mutant: a case, changed as little as was found to matter."""

    origin: str
    """the id of the case it changes"""
    changes: list[Change]
    kill: Kill
    raw: dict[str, Any]
    """the case file to add (without what ``judge gen`` writes)"""

    def as_json(self) -> dict[str, Any]:
        return {"case": self.origin, "changes": [str(c) for c in self.changes], "kill": self.kill.as_json()}


@dataclass
class Outcome:
    mutant: Mutant
    status: str
    kill: Kill | None = None
    """the first case that failed it (killed), or what the judge said (error)"""
    reason: str = ""
    """why it is equivalent"""
    witness: Witness | None = None
    """for a survivor: the input that kills it"""

    def as_json(self) -> dict[str, Any]:
        return {**self.mutant.as_json(), "status": self.status, "killed_by": self.kill.as_json() if self.kill else None,
                "reason": self.reason or None, "witness": self.witness.as_json() if self.witness else None}


@dataclass
class Run:
    """One problem's mutation run."""

    slug: str
    outcomes: list[Outcome]
    generated: int
    """mutants made (``--max`` judges fewer)"""
    inputs: int
    """sound generated inputs the survivors of the cases were judged on (0 when none survived)"""
    seconds: float
    settings: Settings
    stale: list[str] = field(default_factory=list)
    """declarations that name no mutant or a killed one, as sentences"""

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def score(self) -> float:
        """killed / (all - equivalent); 1.0 when every mutant is equivalent"""
        counted = len(self.outcomes) - self.count(EQUIVALENT)
        return self.count(KILLED) / counted if counted else 1.0

    @property
    def below_floor(self) -> bool:
        return self.settings.floor is not None and self.score < self.settings.floor - 1e-12

    def as_json(self) -> dict[str, Any]:
        return {"problem": self.slug, "mutants": len(self.outcomes), "generated": self.generated,
                **{status: self.count(status) for status in STATUSES}, "score": round(self.score, 4),
                "floor": self.settings.floor, "generated_inputs": self.inputs, "seconds": round(self.seconds, 1),
                "stale_declarations": self.stale, "outcomes": [o.as_json() for o in self.outcomes]}


def _accepted(pool: Pool, plan: Plan, problem: Problem) -> Kill | None:
    """Where the reference itself fails ``plan`` (None: nowhere, as it must)."""
    return pool.first_failures(plan, [("reference", problem.reference.read_text(encoding="utf-8"))])[0]


class _Inputs:
    """The generated inputs of one problem, made when a mutant first survives the cases, and the shrinking of
    a survivor's killing input."""

    def __init__(self, problem: Problem, module: ModuleType, pool: Pool, plan: Plan):
        self.problem, self.module, self.pool = problem, module, pool
        self.limits = {case.id: limit for case, limit in zip(plan.cases, plan.limits)}
        self.found: list[Variant] | None = None
        self.plan: Plan | None = None

    def _make(self) -> None:
        found = variants(self.problem, self.module)
        while found:  # the reference must pass its own generated inputs in the worker, as it passes the cases
            self.plan = plan_for(self.problem, [v.case for v in found], [self.limits[v.origin.id] for v in found])
            failed = _accepted(self.pool, self.plan, self.problem)
            if failed is None:
                break
            found = [v for v in found if v.case.id != failed.case]
        self.found = found

    def judge(self, survivors: list[Mutant]) -> list[Kill | None]:
        if self.found is None:
            self._make()
        if not self.found:
            return [None] * len(survivors)
        return self.pool.first_failures(self.plan, [(m.id, m.source) for m in survivors])

    def witness(self, mutant: Mutant, kill: Kill) -> Witness:
        """The killing input with as few of its changes as still kill ``mutant``."""
        variant = next(v for v in self.found if v.case.id == kill.case)
        tried: dict[tuple[int, ...], Kill | None] = {}
        index = {id(c): i for i, c in enumerate(variant.changes)}

        def kills(changes: list[Change]) -> bool:
            key = tuple(index[id(c)] for c in changes)
            if key not in tried:
                case = sound(self.problem, self.module, variant.origin, changes, f"{variant.origin.name}~shrunk")
                tried[key] = None if case is None else self._one(case, variant.origin, mutant)
            return tried[key] is not None

        kept = shrink(variant.changes, kills)
        last = tried.get(tuple(index[id(c)] for c in kept)) or kill
        return Witness(variant.origin.id, kept, last, applied(variant.origin.raw, kept))

    def _one(self, case: Case, origin: Case, mutant: Mutant) -> Kill | None:
        plan = plan_for(self.problem, [case], [self.limits[origin.id]])
        return self.pool.first_failures(plan, [(mutant.id, mutant.source)])[0]


def _stale(settings: Settings, made: list[Mutant], outcomes: list[Outcome], path: Any) -> list[str]:
    ids = {m.id for m in made}
    killed = {o.mutant.id: o.kill for o in outcomes if o.status == KILLED}
    found = [messages.say("mutate_stale_unknown", path=path, id=i) for i in settings.equivalent if i not in ids]
    return found + [messages.say("mutate_stale_killed", path=path, id=i, case=killed[i].case)
                    for i in settings.equivalent if i in killed]


def mutate(problem: Problem, pool: Pool, most: int | None = None, device: str = "cpu",
           log: Log = lambda _: None) -> Run:
    """Judge the mutants of ``problem``'s reference (at most ``most`` of them, spread over the file)."""
    started = time.monotonic()
    config = settings(problem)
    made = mutants(problem.reference.read_text(encoding="utf-8"))
    chosen = spread(made, most)
    plan = make_plan(problem, "submit", device)
    failed = _accepted(pool, plan, problem)
    if failed is not None:
        raise InternalError("reference_failed", case=failed.case, reason=failed.verdict)
    log(messages.say("mutate_progress", slug=problem.slug, count=len(chosen), step="the cases"))
    kills = pool.first_failures(plan, [(m.id, m.source) for m in chosen])
    outcomes, open_ = [], []
    for mutant, kill in zip(chosen, kills):
        if kill is not None:
            outcomes.append(Outcome(mutant, ERROR if kill.verdict == "internal_error" else KILLED, kill))
        elif mutant.id in config.equivalent:
            outcomes.append(Outcome(mutant, EQUIVALENT, reason=config.equivalent[mutant.id]))
        else:
            outcomes.append(Outcome(mutant, SURVIVED))
            open_.append(outcomes[-1])
    inputs = _Inputs(problem, load_reference(problem), pool, plan)
    if open_:
        log(messages.say("mutate_progress", slug=problem.slug, count=len(open_), step="generated inputs"))
        for outcome, kill in zip(open_, inputs.judge([o.mutant for o in open_])):
            if kill is not None:
                outcome.witness = inputs.witness(outcome.mutant, kill)
            elif inputs.found:  # with no sound generated input, nothing shows it equivalent: it stays a survivor
                outcome.status, outcome.reason = EQUIVALENT, messages.say("mutate_no_difference", count=len(inputs.found))
    stale = _stale(config, made, outcomes, problem.root / "problem.toml") if most is None else []
    return Run(problem.slug, outcomes, len(made), len(inputs.found or []), time.monotonic() - started, config, stale)


def _where(kill: Kill) -> str:
    return f" in {kill.method}" + (f" at {kill.field}" if kill.field else "") if kill.method else ""


def render_text(run: Run, reference: Any, listed: tuple[str, ...] = (SURVIVED, ERROR, EQUIVALENT)) -> str:
    """The run for a person: a header, every mutant whose status is ``listed`` with what to do, the score."""
    lines = [messages.say("mutate_header", slug=run.slug, mutants=len(run.outcomes), reference=reference,
                          generated=run.generated, seconds=run.seconds)]
    for status in listed:
        for o in (o for o in run.outcomes if o.status == status):
            m = o.mutant
            lines.append(messages.say("mutate_line", status=status, id=m.id, line=m.line, function=m.function,
                                      change=m.change))
            if o.witness is not None:
                w = o.witness
                lines.append(messages.say("mutate_survivor_fix", case=w.origin, changes="; ".join(map(str, w.changes)),
                                          verdict=w.kill.verdict, where=_where(w.kill), slug=run.slug, id=m.id))
            elif status == SURVIVED:
                lines.append(messages.say("mutate_survivor_nothing"))
            elif o.kill is not None:
                lines.append(messages.say("mutate_killed_by", case=o.kill.case, verdict=o.kill.verdict,
                                          where=_where(o.kill)))
            elif o.reason:
                lines.append(messages.say("mutate_equivalent_why", reason=o.reason))
    lines += run.stale
    floor = messages.say("mutate_floor", floor=run.settings.floor) if run.settings.floor is not None else ""
    lines.append(messages.say("mutate_score", slug=run.slug, score=run.score, killed=run.count(KILLED),
                              mutants=len(run.outcomes), equivalent=run.count(EQUIVALENT),
                              survived=run.count(SURVIVED), errors=run.count(ERROR), floor=floor))
    return "\n".join(lines) + "\n"
