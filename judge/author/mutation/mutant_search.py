"""The search for what kills a mutant: the cases that run it, then generated inputs, then boundary inputs.

:class:`Search` holds one problem's plan, the lines each case executes (:mod:`.coverage`) and, once a
mutant survives the cases, the generated inputs (:mod:`.variants`). A mutant is judged

1. on the problem's cases that run one of its lines (a case that does not cannot fail it);
2. if it passes them, on the generated inputs that run it; a kill counts only on a sound input, and the input
   is then shrunk to the fewest of its changes that still kill (:func:`.variants.shrink`);
3. if it passes those too, on boundary inputs aimed at it: each case that runs it with one literal argument
   set to one of the mutant's boundary values (the midpoint between a changed constant's two values, or a
   threshold it compares with), which random draws almost never hit.

What kills it is a :class:`Witness`: the case to add. Every judgement goes through
:class:`.mutant_judge.Pool`, as a submission's does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judge.author.mutation.coverage import Covering
from judge.author.mutation.mutant_judge import Kill, Pool, plan_for, subset
from judge.author.mutation.mutants import Mutant
from judge.author.mutation.variants import (Change, Variant, applied, build, is_sound, one_call, probes, shrink,
                                            variants)
from judge.author.reference import load_reference
from judge.judging.calibrate import reference_times
from judge.judging.plan import Plan, make_plan
from judge.package.cases import Case
from judge.package.problem import Problem


@dataclass(frozen=True)
class Witness:
    """A generated input that kills a surviving mutant: a case, changed as little as was found to matter."""

    origin: str
    """the id of the case it changes"""
    changes: list[Change]
    kill: Kill
    raw: dict[str, Any]
    """the case file to add (without what ``judge gen`` writes)"""
    call: int | None = None
    """when the case to add keeps only one call of the origin: its index there"""

    def as_json(self) -> dict[str, Any]:
        return {"case": self.origin, "only_call": self.call, "changes": [str(c) for c in self.changes],
                "kill": self.kill.as_json()}

    @property
    def described(self) -> str:
        """``sample/01-x`` or ``sample/01-x (call 2 alone)``, then the changes"""
        alone = f" (call {self.call} alone)" if self.call is not None else ""
        return f"{self.origin}{alone} with {'; '.join(map(str, self.changes))}"



class Search:
    """One problem's mutants judged: on the cases that run them, then the survivors on generated inputs."""

    def __init__(self, problem: Problem, pool: Pool, device: str):
        self.problem, self.pool = problem, pool
        self.source = problem.reference.read_text(encoding="utf-8")
        self.module = load_reference(problem)
        self.covering = Covering(problem)
        self.plan = make_plan(problem, "submit", device)
        self.limits = {case.id: limit for case, limit in zip(self.plan.cases, self.plan.limits)}
        self.times = reference_times(problem, device)
        """the reference's CPU seconds per case (a generated input costs about what its origin costs)"""
        self.calls = [self.covering.run(case)[1] for case in self.plan.cases]
        """per case, per call, the lines of the reference it runs"""
        self.covered = [frozenset().union(*lines) for lines in self.calls]
        self.plans: dict[tuple[int, tuple[int, ...]], Plan] = {}
        self.found: list[Variant] | None = None
        """the generated inputs, made when a mutant first survives the cases"""
        self.inputs: Plan | None = None
        self.sound: dict[str, bool] = {}
        self.probed: dict[tuple[str, tuple[Any, ...], Any], Variant | None] = {}

    def reference_fails(self, plan: Plan) -> Kill | None:
        """Where the reference itself fails ``plan`` (None: nowhere, as it must)."""
        return self.pool.first_failures([(plan, "reference", self.source)])[0]

    def _judge(self, base: Plan, lines: list[frozenset[int]], costs: list[float], chosen: list[Mutant]
               ) -> list[tuple[Kill | None, int]]:
        """Each mutant judged on the cases of ``base`` that run one of its lines, the cheapest first (``costs``:
        the reference's CPU seconds on each), so a kill costs as little as it can: its first failure and how many
        cases run it (none: it is not judged)."""
        items, where = [], []
        for mutant in chosen:
            indices = tuple(sorted((i for i, executed in enumerate(lines)
                                    if self.covering.runs(mutant.line, mutant.end_line, executed)),
                                   key=costs.__getitem__))
            where.append((len(items) if indices else None, len(indices)))
            if indices:
                key = (id(base), indices)
                self.plans.setdefault(key, subset(base, indices))
                items.append((self.plans[key], mutant.id, mutant.source))
        kills = self.pool.first_failures(items)
        return [(None if i is None else kills[i], count) for i, count in where]

    def on_cases(self, chosen: list[Mutant]) -> list[tuple[Kill | None, int]]:
        return self._judge(self.plan, self.covered, [self.times[c.id] for c in self.plan.cases], chosen)

    def _make(self) -> None:
        found = variants(self.problem, self.covering)
        while found:  # the reference must pass its own generated inputs in the worker, as it passes the cases
            self.inputs = self._plan(found)
            failed = self.reference_fails(self.inputs)
            if failed is None:
                break
            found = [v for v in found if v.case.id != failed.case]
        self.found = found

    def _plan(self, found: list[Variant]) -> Plan:
        return plan_for(self.plan, [v.case for v in found], [self.limits[v.origin.id] for v in found])

    def _drop(self, case_id: str) -> None:
        self.found = [v for v in self.found if v.case.id != case_id]
        self.inputs = self._plan(self.found)

    def on_inputs(self, chosen: list[Mutant]) -> list[tuple[Kill | None, int]]:
        """Each mutant judged on the generated inputs that run it; a kill counts only on a sound input (one that
        is not is dropped, and the mutants it killed are judged again without it)."""
        if self.found is None:
            self._make()
        results: dict[str, tuple[Kill | None, int]] = {}
        todo = list(chosen)
        while todo and self.found:
            lines, costs = [v.lines for v in self.found], [self.times[v.origin.id] for v in self.found]
            judged = self._judge(self.inputs, lines, costs, todo)
            again = []
            for mutant, (kill, count) in zip(todo, judged):
                if kill is not None and not self._sound(kill.case):
                    self._drop(kill.case)
                    again.append(mutant)
                else:
                    results[mutant.id] = (kill, count)
            todo = again
        return [results.get(m.id, (None, 0)) for m in chosen]

    def _sound(self, case_id: str) -> bool:
        if case_id not in self.sound:
            variant = next(v for v in self.found if v.case.id == case_id)
            self.sound[case_id] = is_sound(self.problem, self.module, variant.case)
        return self.sound[case_id]

    def on_probes(self, chosen: list[Mutant]) -> list[Witness | None]:
        """Each mutant judged on boundary inputs aimed at it: every case that runs it, with one number of its
        literal arguments set to one of the mutant's boundary values (a kill counts on a sound input only)."""
        found: dict[str, Witness | None] = {}
        todo = {m.id: (m, self._probes(m)) for m in chosen}
        while todo:
            asked = [(m, made) for m, made in todo.values() if made]
            items = [(self._plan(made), m.id, m.source) for m, made in asked]
            todo = {}
            for (mutant, made), kill in zip(asked, self.pool.first_failures(items)):
                variant = next((v for v in made if v.case.id == kill.case), None) if kill else None
                if variant is None:
                    continue
                if is_sound(self.problem, self.module, variant.case):
                    found[mutant.id] = Witness(variant.origin.id, variant.changes, kill,
                                               one_call(applied(variant.origin.raw, variant.changes), variant.call),
                                               variant.call)
                else:
                    todo[mutant.id] = (mutant, [v for v in made if v is not variant])
        return [found.get(m.id) for m in chosen]

    def _probes(self, mutant: Mutant) -> list[Variant]:
        """Boundary inputs for ``mutant``: each call that runs it, alone, with one literal number changed."""
        made = []
        for origin, per_call in zip(self.plan.cases, self.calls):
            for index, executed in enumerate(per_call):
                if not self.covering.runs(mutant.line, mutant.end_line, executed):
                    continue
                for change in probes(origin, index, mutant.values):
                    key = (origin.id, change.path, change.after)
                    if key not in self.probed:
                        self.probed[key] = build(self.problem, self.covering, origin, [change],
                                                 f"{origin.visibility}.{origin.name}~p{len(self.probed)}", index)
                    made += [self.probed[key]] if self.probed[key] is not None else []
        return made

    def witness(self, mutant: Mutant, kill: Kill) -> Witness:
        """The killing input with as few of its changes as still kill ``mutant`` on a sound input."""
        variant = next(v for v in self.found if v.case.id == kill.case)
        index = {id(c): i for i, c in enumerate(variant.changes)}
        tried: dict[tuple[int, ...], Kill | None] = {tuple(range(len(variant.changes))): kill}

        def kills(changes: list[Change]) -> bool:
            key = tuple(index[id(c)] for c in changes)
            if key not in tried:
                tried[key] = self._kills(variant.origin, changes, mutant, variant.call)
            return tried[key] is not None

        kept = shrink(variant.changes, kills)
        raw = applied(variant.origin.raw, kept)
        return Witness(variant.origin.id, kept, tried[tuple(index[id(c)] for c in kept)],
                       raw if variant.call is None else one_call(raw, variant.call), variant.call)

    def _kills(self, origin: Case, changes: list[Change], mutant: Mutant, call: int | None) -> Kill | None:
        made = build(self.problem, self.covering, origin, changes, f"{origin.visibility}.{origin.name}~shrunk", call)
        if made is None:
            return None
        plan = plan_for(self.plan, [made.case], [self.limits[origin.id]])
        kill = self.pool.first_failures([(plan, mutant.id, mutant.source)])[0]
        return kill if kill is not None and is_sound(self.problem, self.module, made.case) else None
