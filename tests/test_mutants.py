"""The mutation operators make the one-mistake mutants they claim, and only those; generated inputs and their
shrinking behave as ``judge mutate`` relies on. (Whole runs through the judge are in tests/test_mutate.py.)"""

from __future__ import annotations

import ast
import random
import textwrap

import pytest

from judge.author.mutation.mutant_judge import plan_for
from judge.author.mutation.mutants import mutants
from judge.author.mutation.mutate import settings, spread
from judge.author.mutation.variants import SEEDS, Change, applied, draw, shrink
from judge.errors import BadInput
from judge.judging.plan import Plan, checks_for
from judge.package.problem import available, find_problem

SOURCE = textwrap.dedent('''
    """A module docstring: never mutated."""
    from typing import List

    import torch

    LIMIT = 0.5


    def _helper(x: torch.Tensor, flag: bool = True) -> float:
        """A docstring."""
        return x.std(dim=0).mean().item()


    class Solution:
        def measure(self, x: torch.Tensor) -> List[float]:
            values = [round(x.sum(1).max().item(), 4), x.var().item()]
            return values[1:] + [values[-1] - values[0]]

        def rule(self, stats: List[float]) -> str:
            if not stats:
                return 'empty'
            if any(s > LIMIT for s in stats) and len(stats) >= 2:
                return 'high'
            return 'low'

        def _boundaries(self, *args):
            return [(args[0], 0.5)]
''')


def _changes(source: str = SOURCE) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for m in mutants(source):
        found.setdefault(m.operator, set()).add(m.change)
    return found


def test_every_operator_applies_to_the_sample_module():
    found = _changes()
    expect = {
        "compare": {"s > LIMIT -> s >= LIMIT", "s > LIMIT -> s < LIMIT", "len(stats) >= 2 -> len(stats) > 2"},
        "boolean": {"any((s > LIMIT for s in stats)) and len(stats) >= 2 -> any((s > LIMIT for s in stats)) "
                    "or len(stats) >= 2", "not stats -> stats"},
        "call": {"any((s > LIMIT for s in stats)) -> all((s > LIMIT for s in stats))",
                 "x.sum(1).max() -> x.sum(1).min()", "x.sum(1) -> x.mean(1)"},
        "constant": {"0.5 -> 1.5", "0.5 -> -0.5", "0.5 -> 5.0", "0.5 -> 0.0", "2 -> 3", "4 -> 3", "4 -> 0",
                     "True -> False"},
        "index": {"values[-1] -> values[0]", "values[0] -> values[-1]", "values[0] -> values[1]",
                  "values[1:] -> values[2:]", "values[1:] -> values[0:]"},
        "drop": {"values = [round(x.sum(1).max().item(), 4), x.var().item()] -> pass"},
        "drop-branch": {"if not stats: ... -> pass"},
        "swap": {"round(x.sum(1).max().item(), 4) -> round(4, x.sum(1).max().item())"},
        "arithmetic": {"values[1:] + [values[-1] - values[0]] -> values[1:] - [values[-1] - values[0]]"},
        "dim": {"x.std(dim=0) -> x.std(dim=1)", "x.std(dim=0) -> x.std(dim=-1)", "x.sum(1) -> x.sum(0)"},
        "reduce": {"x.std(dim=0) -> x.std()", "x.std(dim=0) -> x.std(dim=0, keepdim=True)", "x.sum(1) -> x.sum()"},
        "correction": {"x.std(dim=0) -> x.std(dim=0, correction=0)", "x.var() -> x.var(correction=0)"},
    }
    for operator, changes in expect.items():
        assert changes <= found.get(operator, set()), (operator, changes - found.get(operator, set()))


def test_what_is_never_mutated():
    changes = {c for cs in _changes().values() for c in cs}
    assert not any("List" in c.split(" -> ")[0] and "List[" in c for c in changes)  # annotations
    assert not any("docstring" in c or "import" in c for c in changes)
    assert not any("(args[0], 0.5)" in c for c in changes)  # Solution._boundaries is the generator's alone
    assert "4 -> 5" not in changes and "4 -> 40" not in changes  # round to more decimals: the same answer
    assert "return 'empty' -> pass" not in changes  # alone in its block: dropping the if covers it
    assert "return x.std(dim=0).mean().item() -> pass" not in changes  # alone but for the docstring


def test_mutants_are_distinct_valid_modules_with_stable_ids():
    made = mutants(SOURCE)
    sources = [m.source for m in made]
    assert len(set(sources)) == len(sources) and ast.unparse(ast.parse(SOURCE)) not in sources
    for m in made:
        compile(m.source, m.id, "exec")
    moved = "# a comment and a blank line move every line\n\n" + SOURCE
    assert [m.id for m in mutants(moved)] == [m.id for m in made]
    assert [m.line - 2 for m in mutants(moved)] == [m.line for m in made]
    assert len({m.id for m in made}) == len(made)
    edited = SOURCE.replace("        if not stats:\n", "        stats = list(stats)\n        if not stats:\n")
    assert edited != SOURCE
    kept = {m.id for m in mutants(edited)}
    elsewhere = [m.id for m in made if m.function != "Solution.rule"]
    assert len(elsewhere) >= 10 and [i for i in elsewhere if i not in kept] == []  # an edit of another method


def test_spread_picks_evenly_and_all_by_default():
    made = mutants(SOURCE)
    assert spread(made, None) == made and spread(made, 10 * len(made)) == made
    picked = spread(made, 5)
    assert len(picked) == 5 and picked[0] == made[0] and picked[-1].line > made[len(made) // 2].line


@pytest.mark.parametrize("slug", available())
def test_every_reference_has_mutants_and_valid_settings(slug):
    problem = find_problem(slug)
    made = mutants(problem.reference.read_text())
    assert len(made) >= 30
    assert settings(problem).floor == 1.0  # every bundled problem is measured and held at 100 %
    assert set(settings(problem).equivalent) <= {m.id for m in made}


def test_malformed_mutation_settings_are_bad_input(tmp_path):
    problem = find_problem("dead-relu-detector")
    for table in ({"floor": 2}, {"floor": "all"}, {"equivalent": [{"id": "x"}]}, {"limit": 1}):
        broken = type(problem)(problem.root, {**problem.meta, "mutation": table})
        with pytest.raises(BadInput, match=r"\[mutation\]"):
            settings(broken)


def test_generated_inputs_change_seeds_numbers_and_literal_arguments():
    case = next(c for c in find_problem("dead-relu-detector").cases if c.id == "hidden/01-kaiming-small-batch")
    changes = draw(case, random.Random(1))
    wheres = {c.where for c in changes}
    assert {"objects.model.seed", "objects.x.seed", "calls[1].args[0][1]"} <= wheres
    assert all(c.after != c.before for c in changes)
    assert draw(case, random.Random(1)) == changes  # seeded: a run is reproducible
    seeds = draw(case, random.Random(1), SEEDS)
    assert {c.where for c in seeds} == {"objects.model.seed", "objects.x.seed"}
    raw = applied(case.raw, seeds)
    assert "expected" not in raw and "build_sha256" not in raw and case.raw["objects"]["x"]["seed"] == 301
    assert raw["objects"]["x"]["seed"] == next(c.after for c in seeds if c.where == "objects.x.seed")


def test_shrink_keeps_only_the_changes_that_kill():
    changes = [Change(("calls", i), 0, 1) for i in range(9)]
    needed = {changes[2], changes[7]}
    asked = []

    def kills(trial):
        asked.append(trial)
        return needed <= set(trial)

    assert set(shrink(changes, kills)) == needed
    assert [] not in asked and len(asked) < 30
    assert shrink(changes[:1], kills) == changes[:1]


COVERED = textwrap.dedent('''
    LIMIT = 2


    class Solution:
        def rule(self, xs):
            if (len(xs) >
                    LIMIT):
                return 'long'
            total = sum(
                x for x in xs)
            return 'short' if total else 'empty'
''')


def test_coverage_records_the_lines_each_call_runs(tmp_path):
    from types import SimpleNamespace

    from judge.author.mutation.coverage import Covering
    from judge.package.cases import parse_case

    reference = tmp_path / "toy.py"
    reference.write_text(COVERED)
    covering = Covering(SimpleNamespace(reference=reference, slug="toy"))
    raw = {"calls": [{"method": "rule", "args": [[1]]}, {"method": "rule", "args": [[1, 2, 3]]}]}
    outputs, (short, long) = covering.run(parse_case(raw, tmp_path / "c.json", "hidden", {"rule"}))
    assert outputs == ["short", "long"]
    assert {7, 8, 10, 11, 12} <= short and 9 not in short  # the if's two header lines; the statement's two lines
    assert 9 in long and 10 not in long
    assert covering.runs(9, 9, long) and not covering.runs(9, 9, short)
    assert covering.runs(2, 2, frozenset())  # module level: runs at import, for every case


def test_the_readme_table_counts_every_problem_s_mutants():
    from tests.support.cli import REPO

    rows = {}
    for line in (REPO / "README.md").read_text().splitlines():
        if line.startswith("| `") and line.count("|") == 7:
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0].strip("`")] = int(cells[3])
    assert rows == {slug: len(mutants(find_problem(slug).reference.read_text())) for slug in available()}


def test_a_plan_for_generated_inputs_keeps_the_problem_s_confinement_and_checks():
    problem, confinement = find_problem("dead-relu-detector"), object()
    base = Plan(problem, "submit", "cpu", [], [], [], [], confinement, checks_for(problem))
    cases = problem.cases[:2]
    plan = plan_for(base, cases, ["limit-a", "limit-b"])
    assert plan.confinement is confinement and plan.checks is base.checks and plan.mode == "submit"
    assert plan.cases == cases and plan.limits == ["limit-a", "limit-b"]
    assert plan.expected == [c.outputs("cpu") for c in cases] and plan.expected_devices == ["cpu", "cpu"]
