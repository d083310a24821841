"""``judge mutate``: how many one-mistake mutants of the reference a problem's cases catch.

For a problem: every mutant of the reference solution (:mod:`.mutants`) is judged against the
problem's cases, samples then hidden, through warm workers (:mod:`.mutant_judge`), exactly as a
submission is. A mutant is

* ``killed`` by the first case it does not pass (any verdict but ``accepted``);
* ``equivalent`` when it passes every case and also every generated input (:mod:`.mutant_search`:
  each case with fresh seeds and changed numbers, and boundary values aimed at it), so no input this problem's
  cases can express tells it from the reference. Its ``evidence`` says which search showed it. An author's
  declaration in ``[[mutation.equivalent]]`` of problem.toml adds a reason for people to read, never proof:
  a declared mutant is judged on the same inputs as any other, and one they kill makes the declaration stale;
* ``survived`` when it passes every case but fails a generated input: the cases are too weak there, and the
  generated input, shrunk to the fewest changes that still kill it, is the case to add (``judge gen --kill``);
* ``error`` when the judge itself failed on it (``internal_error``).

The score is killed / (all - equivalent); ``[mutation] floor`` in problem.toml is the score ``judge verify``
requires. A declaration that names no mutant, or a mutant a case or a generated input kills, is stale
(reported by ``verify``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

import torch

from judge import messages
from judge.author.mutation.mutant_judge import Kill, Pool
from judge.author.mutation.mutant_search import Search, Witness
from judge.author.mutation.mutants import Mutant, mutants
from judge.errors import BadInput, InternalError
from judge.package.problem import Problem

KILLED, SURVIVED, EQUIVALENT, ERROR = "killed", "survived", "equivalent", "error"
STATUSES = (KILLED, SURVIVED, EQUIVALENT, ERROR)
SEARCHED, UNREACHED = "searched", "unreached"
"""the evidence of an equivalent mutant: generated inputs ran its line and none told it from the reference, or no
case and no generated input runs its line at all"""
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


@dataclass
class Outcome:
    mutant: Mutant
    status: str
    kill: Kill | None = None
    """the first case that failed it (killed), or what the judge said (error)"""
    reason: str = ""
    """why it is equivalent, as its author declared it (documentation, not evidence)"""
    evidence: str = ""
    """what showed it equivalent, in words"""
    evidence_class: str = ""
    """:data:`SEARCHED` or :data:`UNREACHED`"""
    witness: Witness | None = None
    """for a survivor: the input that kills it"""

    def as_json(self) -> dict[str, Any]:
        return {**self.mutant.as_json(), "status": self.status, "killed_by": self.kill.as_json() if self.kill else None,
                "reason": self.reason or None, "evidence": self.evidence or None,
                "evidence_class": self.evidence_class or None,
                "witness": self.witness.as_json() if self.witness else None}


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
                "evidence": {kind: sum(o.evidence_class == kind for o in self.outcomes)
                             for kind in (SEARCHED, UNREACHED)},
                "floor": self.settings.floor, "generated_inputs": self.inputs, "seconds": round(self.seconds, 1),
                "stale_declarations": self.stale, "outcomes": [o.as_json() for o in self.outcomes]}


def spread(found: list[Mutant], most: int | None) -> list[Mutant]:
    """At most ``most`` mutants, evenly spread over the file (all of them when ``most`` is None)."""
    if most is None or most >= len(found):
        return found
    return [found[i * len(found) // most] for i in range(most)]


def _stale(settings: Settings, made: list[Mutant], outcomes: list[Outcome], path: Any) -> list[str]:
    """Declarations that name no mutant, or one that a case or a generated input kills."""
    ids = {m.id for m in made}
    killed = {o.mutant.id: o.kill.case if o.kill else o.witness.described
              for o in outcomes if o.status == KILLED or o.witness is not None}
    found = [messages.say("mutate_stale_unknown", path=path, id=i) for i in settings.equivalent if i not in ids]
    return found + [messages.say("mutate_stale_killed", path=path, id=i, case=killed[i])
                    for i in settings.equivalent if i in killed]


def mutate(problem: Problem, pool: Pool, most: int | None = None, device: str = "cpu",
           log: Log = lambda _: None, only: str | None = None) -> Run:
    """Judge the mutants of ``problem``'s reference (at most ``most`` of them, spread over the file; or the one
    whose id is ``only``). A mutant that passes the cases is judged on the generated inputs, declared equivalent
    or not: a declaration is never taken on its author's word."""
    started = time.monotonic()
    torch.set_num_threads(1)  # as judge gen: the reference runs here beside the slots' workers
    config = settings(problem)
    judging = Search(problem, pool, device)
    made = mutants(judging.source)
    chosen = [m for m in made if m.id == only] if only else spread(made, most)
    if only and not chosen:
        raise BadInput("mutate_unknown_mutant", slug=problem.slug, id=only)
    failed = judging.reference_fails(judging.plan)
    if failed is not None:
        raise InternalError("reference_failed", case=failed.case, reason=failed.verdict)
    log(messages.say("mutate_progress", slug=problem.slug, count=len(chosen), step="the cases",
                     seconds=time.monotonic() - started))
    outcomes = [Outcome(m, SURVIVED) if kill is None else Outcome(m, ERROR if kill.verdict == "internal_error"
                                                                  else KILLED, kill)
                for m, (kill, _) in zip(chosen, judging.on_cases(chosen))]
    open_ = [o for o in outcomes if o.status == SURVIVED]
    if open_:
        log(messages.say("mutate_progress", slug=problem.slug, count=len(open_), step="generated inputs",
                         seconds=time.monotonic() - started))
        judged = judging.on_inputs([o.mutant for o in open_])
        for outcome, (kill, _) in zip(open_, judged):
            if kill is not None:
                outcome.witness = judging.witness(outcome.mutant, kill)
        rest = [(o, count) for o, (kill, count) in zip(open_, judged) if kill is None]
        for (outcome, count), witness in zip(rest, judging.on_probes([o.mutant for o, _ in rest])):
            outcome.witness = witness
            if witness is None and judging.found:  # with no generated input, nothing shows it equivalent
                outcome.status, outcome.reason = EQUIVALENT, config.equivalent.get(outcome.mutant.id, "")
                outcome.evidence_class = SEARCHED if count else UNREACHED
                outcome.evidence = messages.say("mutate_no_difference", count=count) if count else messages.say(
                    "mutate_never_run", line=outcome.mutant.line)
    stale = _stale(config, made, outcomes, problem.root / "problem.toml") if most is None and not only else []
    return Run(problem.slug, outcomes, len(made), len(judging.found or []), time.monotonic() - started, config, stale)


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
                lines.append(messages.say("mutate_survivor_fix", case=w.described, verdict=w.kill.verdict,
                                          where=_where(w.kill), slug=run.slug, id=m.id))
            elif status == SURVIVED:
                lines.append(messages.say("mutate_survivor_nothing"))
            elif o.kill is not None:
                lines.append(messages.say("mutate_killed_by", case=o.kill.case, verdict=o.kill.verdict,
                                          where=_where(o.kill)))
            elif status == EQUIVALENT:
                why = "; ".join(filter(None, (o.reason, o.evidence)))
                lines.append(messages.say("mutate_equivalent_why", reason=why))
    lines += run.stale
    floor = messages.say("mutate_floor", floor=run.settings.floor) if run.settings.floor is not None else ""
    lines.append(messages.say("mutate_score", slug=run.slug, score=run.score, killed=run.count(KILLED),
                              mutants=len(run.outcomes), equivalent=run.count(EQUIVALENT),
                              survived=run.count(SURVIVED), errors=run.count(ERROR), floor=floor))
    return "\n".join(lines) + "\n"
