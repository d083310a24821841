"""The generated inputs reach beyond the cases' neighbourhood: each family of variants changes what
its docstring says (:mod:`judge.author.mutation.variants`), on the bundled problems' own cases."""

from __future__ import annotations

import math
import random

import pytest

from judge.author.mutation.variants import FAMILIES, NEAR, Family, applied, draw
from judge.package.problem import available, find_problem

FAMILY = {family.name: family for family, _ in FAMILIES}


def _cases():
    return [case for slug in available() for case in find_problem(slug).cases]


def _numbers(changes, kind):
    return [(c.before, c.after) for c in changes if type(c.before) is kind and type(c.after) is kind]


def test_every_family_is_drawn_for_every_case_and_near_twice():
    assert [(f.name, n) for f, n in FAMILIES] == [("near", 2), ("wide", 1), ("zeros", 1), ("sizes", 1)]
    assert FAMILIES[0][0] is NEAR


def test_wide_variants_reach_a_thousandth_and_a_thousand_times_the_cases_floats():
    ratios = [after / before for case in _cases() for k in range(3)
              for before, after in _numbers(draw(case, random.Random(k), FAMILY["wide"]), float) if before]
    exponents = [math.log10(abs(r)) for r in ratios]
    assert min(exponents) < -2.5 and max(exponents) > 2.5  # the whole range, not ×0.7–1.5
    assert all(-3.01 < e < 3.01 for e in exponents) and all(r > 0 for r in ratios)  # a scale, never a sign


def test_zeros_variants_make_exact_zeros_of_floats_and_literal_integers():
    changes = [c for case in _cases() for c in draw(case, random.Random(0), FAMILY["zeros"])
               if not c.where.endswith(".seed")]
    assert changes and all(c.after == 0 and type(c.after) is type(c.before) for c in changes if
                           not isinstance(c.after, list))
    assert any(type(c.after) is float for c in changes) and any(type(c.after) is int for c in changes)


@pytest.mark.parametrize("slug", ["training-diagnostics", "conv-channel-health", "grad-clip-audit"])
def test_sizes_variants_change_one_size_everywhere_it_occurs(slug):
    changed = 0
    for case in find_problem(slug).cases:
        changes = [c for c in draw(case, random.Random(3), FAMILY["sizes"]) if not c.where.endswith(".seed")]
        pairs = {(b, a) for c in changes for b, a in zip(_flat(c.before), _flat(c.after)) if b != a}
        assert len(pairs) <= 1, (case.id, pairs)  # one size, changed the same way in every list that holds it
        for before, after in pairs:
            assert after in (before + 1, before - 1, 2 * before) and after > 0
            held = [c.path for c in _lists(case.raw["objects"], ("objects",)) if before in _flat(c.value)]
            assert sorted(held) == sorted(c.path for c in changes)  # every list that holds it
            changed += 1
    assert changed


def test_a_family_that_changes_nothing_but_seeds_keeps_every_number():
    keep = Family("keep", lambda v, rng: v, lambda v, rng: v)
    case = find_problem("grad-clip-audit").cases[0]
    changes = draw(case, random.Random(5), keep)
    assert changes and all(c.where.endswith(".seed") for c in changes)
    assert applied(case.raw, changes)["calls"] == case.raw["calls"]


def _flat(value):
    if isinstance(value, list):
        return [x for v in value for x in _flat(v)]
    return [value]


class _Held:
    def __init__(self, path, value):
        self.path, self.value = path, value


def _lists(value, path):
    """Every list of integers in an object spec, with its path."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _lists(item, (*path, key))
    elif isinstance(value, list):
        if value and all(type(x) is int for x in _flat(value)):
            yield _Held(path, value)
        elif not all(type(x) in (int, float) for x in _flat(value)):
            for index, item in enumerate(value):
                yield from _lists(item, (*path, index))
