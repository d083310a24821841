"""The rewrites of :mod:`judge.author.mutation.aggregates` (another aggregate, an added or a dropped guard, a loop
cut short) make the mutants they claim on small sources, leave the one-token mutants' ids alone, and behave as
the learner's mistakes they stand for."""

from __future__ import annotations

import textwrap

import pytest

from judge.author.mutation import mutants as one_token_operators
from judge.author.mutation.mutants import mutants
from judge.package.problem import available, find_problem

OPERATORS = ("spread", "each", "mean", "clamp", "unclamp", "loop")


def _made(source: str, operator: str | None = None) -> set[str]:
    return {m.change for m in mutants(textwrap.dedent(source)) if operator is None or m.operator == operator}


def _run(source: str, change: str, method: str, *args):
    """The mutant of ``source`` that makes ``change``, its ``Solution.method`` called on ``args``."""
    made = next(m for m in mutants(textwrap.dedent(source)) if m.change == change)
    scope: dict = {}
    exec(compile(made.source, made.id, "exec"), scope)
    return getattr(scope["Solution"](), method)(*args)


RANGE = '''
    class Solution:
        def advice(self, xs):
            return max(xs) - min(xs) > 2.0
'''


def test_spread_swaps_the_range_for_neighbouring_differences_and_the_ends():
    assert _made(RANGE, "spread") == {
        "max(xs) - min(xs) -> max((abs(b - a) for a, b in zip(xs, xs[1:])))",
        "max(xs) - min(xs) -> xs[-1] - xs[0]"}
    # -3, -2, -1, 0: a range of 3, no step above 1, the ends 3 apart; -1, -4, -1: range 3, ends equal
    assert _run(RANGE, "max(xs) - min(xs) -> max((abs(b - a) for a, b in zip(xs, xs[1:])))", "advice",
                [-3, -2, -1, 0]) is False
    assert _run(RANGE, "max(xs) - min(xs) -> xs[-1] - xs[0]", "advice", [-1, -4, -1]) is False
    ends = '''
        class Solution:
            def flow(self, xs):
                return xs[-1] - xs[0]
    '''
    assert _made(ends, "spread") == {"xs[-1] - xs[0] -> max(xs) - min(xs)"}
    assert _run(ends, "xs[-1] - xs[0] -> max(xs) - min(xs)", "flow", [0, 5, 1]) == 5


RULES = '''
    class Solution:
        def rule(self, fractions):
            return any(f > 0.5 for f in fractions) and all([f < 0.9 for f in fractions]) and max(fractions) > 0.1
'''


def test_each_reduces_the_first_or_the_last_element_only():
    assert _made(RULES, "each") == {
        "any((f > 0.5 for f in fractions)) -> any((f > 0.5 for f in list(fractions)[:1]))",
        "any((f > 0.5 for f in fractions)) -> any((f > 0.5 for f in list(fractions)[-1:]))",
        "all([f < 0.9 for f in fractions]) -> all([f < 0.9 for f in list(fractions)[:1]])",
        "all([f < 0.9 for f in fractions]) -> all([f < 0.9 for f in list(fractions)[-1:]])",
        "max(fractions) -> max(list(fractions)[:1])", "max(fractions) -> max(list(fractions)[-1:])"}
    last_only = "any((f > 0.5 for f in fractions)) -> any((f > 0.5 for f in list(fractions)[-1:]))"
    assert _run(RULES, last_only, "rule", [0.6, 0.2]) is False  # the reference says True: the first layer is 0.6
    assert _run(RULES, last_only, "rule", []) is False  # an empty list is still an empty reduction, no IndexError


def test_any_and_all_over_comprehensions_are_still_swapped():
    calls = _made(RULES, "call")
    assert "any((f > 0.5 for f in fractions)) -> all((f > 0.5 for f in fractions))" in calls
    assert "all([f < 0.9 for f in fractions]) -> any([f < 0.9 for f in fractions])" in calls


MEAN = '''
    import statistics


    class Solution:
        def head(self, losses, w):
            return sum(losses[:w]) / w

        def total(self, norms):
            return sum(n * n for n in norms)

        def spike(self, norms):
            return norms[-1] / statistics.median(norms)
'''


def test_mean_swaps_a_sum_for_a_mean_and_back():
    made = _made(MEAN, "mean")
    assert {"sum(losses[:w]) / w -> sum(losses[:w])", "sum((n * n for n in norms)) -> sum((n * n for n in norms)) / "
            "len(norms)", "statistics.median(norms) -> statistics.mean(norms)"} == made
    assert "sum(losses[:w]) -> sum(losses[:w]) / len(losses[:w])" not in made  # divided already: only undone
    assert _run(MEAN, "sum((n * n for n in norms)) -> sum((n * n for n in norms)) / len(norms)", "total",
                [1, 3]) == 5


CLAMPED = '''
    import math

    LIMIT = 4 / 3


    def _r(value):
        return round(value, 4)


    class Solution:
        def stats(self, x, lr, first, last):
            log_ratio = math.log10(max(lr * x, 1e-12))
            change = last - first
            return {"log_ratio": _r(log_ratio), "mean": round(x.mean().item(), 4), "change": _r(change),
                    "scale": round(min(1.0, x), 4)}
'''


def test_clamp_guards_every_computed_value_a_method_rounds_or_assigns():
    made = _made(CLAMPED, "clamp")
    for bound in ("max({}, 0)", "max({}, 1)", "min({}, 1)"):
        assert f"math.log10(max(lr * x, 1e-12)) -> {bound.format('math.log10(max(lr * x, 1e-12))')}" in made
        assert f"x.mean().item() -> {bound.format('x.mean().item()')}" in made
        assert f"last - first -> {bound.format('last - first')}" in made
    assert "last - first -> abs(last - first)" in made  # a difference made absolute
    assert not any(c.startswith(("log_ratio ->", "change ->", "value ->", "4 / 3", "min(1.0, x) ->")) for c in made)
    assert len(made) == 10  # three values, three bounds each, and one abs: nothing at module level, no name
    assert _run(CLAMPED, "last - first -> max(last - first, 0)", "stats", _Scalar(2.0), 0.1, 3, 1)["change"] == 0


def test_unclamp_drops_a_guard_against_a_constant():
    assert _made(CLAMPED, "unclamp") == {"max(lr * x, 1e-12) -> lr * x", "min(1.0, x) -> x"}
    assert not _made("def f(a, b):\n    return max(a, b)\n", "unclamp")  # no constant: a real maximum, not a guard


class _Scalar(float):
    def mean(self):
        return self

    def item(self):
        return float(self)


LOOPS = '''
    class Solution:
        def fractions(self, layers):
            found = []
            for layer in layers:
                found.append(layer * 2)
            return found

        def apply(self, layers, x):
            for layer in layers:
                x = layer + x
            return x
'''


def test_loop_cuts_an_accumulating_loop_short():
    assert _made(LOOPS, "loop") == {f"for layer in layers: ... -> for layer in list(layers){cut}: ..."
                                    for cut in ("[:1]", "[1:]", "[:-1]")}  # apply() accumulates nothing
    assert _run(LOOPS, "for layer in layers: ... -> for layer in list(layers)[:1]: ...", "fractions", [1, 2, 3]) == [2]
    assert _run(LOOPS, "for layer in layers: ... -> for layer in list(layers)[:-1]: ...", "fractions",
                iter([1, 2, 3])) == [2, 4]  # any iterable: a generator too


def test_module_level_constants_and_author_only_code_are_left_alone():
    source = '''
        SCALE = 2 * 3


        class Solution:
            def _boundaries(self, xs):
                return [(max(xs) - min(xs), 1.0)]
    '''
    assert not any(m.operator in OPERATORS for m in mutants(textwrap.dedent(source)))


@pytest.mark.parametrize("slug", available())
def test_rewrites_keep_every_one_token_id_and_add_a_bounded_number(slug, monkeypatch):
    source = find_problem(slug).reference.read_text()
    made = mutants(source)
    rewrites = [m for m in made if m.operator in OPERATORS]
    one_token = [m for m in made if m.operator not in OPERATORS]
    monkeypatch.setattr(one_token_operators, "wider", lambda *_: iter(()))
    assert [m.id for m in mutants(source)] == [m.id for m in one_token]  # what an author declared still names it
    assert [m.line for m in made] == sorted(m.line for m in made)  # in source order
    assert len({m.id for m in made}) == len(made) and len({m.source for m in made}) == len(made)
    assert len(rewrites) <= len(one_token) // 2  # a few per rule, not a combinatorial explosion
    for m in rewrites:
        compile(m.source, m.id, "exec")
    assert not any(m.function == "<module>" for m in rewrites)
