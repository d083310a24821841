"""The comparison rule, as a table of accept/reject rows (docs/numerics.md §3)."""

import math

import pytest

from judge.judging.compare import compare
from judge.package.tolerance import DEFAULT, Tolerance, parse_tolerance

INF, NAN = math.inf, math.nan

NUMBER_ROWS = [
    # got, expected, passes
    (0.1234, 0.1234, True),
    (0.1235, 0.1234, True),        # one grid step: 1.0000000000000286e-04 in binary, absorbed by the slack
    (0.1236, 0.1234, False),
    (0.12345678, 0.1235, True),    # unrounded submissions are fine
    (0.12335, 0.1234, True),
    (0.0, 0.0, True),
    (-0.0, 0.0, True),
    (0.0001, 0.0, True),
    (0.00011, 0.0, False),
    (1e-5, 0.0, True),
    (155246.73, 155246.7, True),   # large float32 statistics: the relative part
    (155262.0, 155246.7, True),    # within 1e-4 relative
    (155270.0, 155246.7, False),
    (-3424.29, -3424.2861, True),
    (3424.29, -3424.29, False),
    (NAN, NAN, True),
    (NAN, 0.5, False),
    (0.5, NAN, False),
    (INF, INF, True),
    (-INF, INF, False),
    (INF, 1e308, False),
    (1e308, INF, False),
    (2, 2.0, True),
    (10**400, 1.0, False),         # an int too big for a float must not crash the parent
]


@pytest.mark.parametrize("got, expected, passes", NUMBER_ROWS)
def test_number_rows(got, expected, passes):
    if type(got) is float:
        assert DEFAULT.matches(got, expected) is passes
    assert compare(got, expected).accepted is passes


@pytest.mark.parametrize("got", [True, False, "0.5", None, [0.5], {"$unsupported": "an object of type AlwaysEqual"}])
def test_not_a_number_is_a_format_error(got):
    result = compare(got, 0.5)
    assert result.format_error is not None and not result.accepted


def test_bool_is_not_an_integer_either():
    assert compare(True, 1).format_error is not None


def test_strings_compare_exactly():
    assert compare("healthy", "healthy").accepted
    assert not compare("Healthy", "healthy").accepted
    assert compare(1.0, "healthy").format_error is not None


def test_list_length_and_dict_keys_must_match():
    assert compare([0.1, 0.2], [0.1]).differences[0].problem == "length"
    assert compare({"mean": 0.1}, {"mean": 0.1, "std": 1.0}).differences[0].problem == "keys"
    assert compare({"mean": 0.1, "std": 1.0, "x": 0}, {"mean": 0.1, "std": 1.0}).differences[0].problem == "keys"


def test_fields_are_named_for_the_report():
    expected = [{"mean": 0.1, "std": 1.0}, {"mean": 0.2, "std": 1.5103}]
    got = [{"mean": 0.1, "std": 1.0}, {"mean": 0.2, "std": 1.5101}]
    (diff,) = compare(got, expected, item="layer").differences
    assert diff.field == "layer 2 · std"
    assert diff.error == pytest.approx(2e-4)
    assert diff.tolerance == pytest.approx(1.5103e-4 + 1e-9)


def test_every_difference_is_listed_up_to_a_cap():
    result = compare([1.0] * 100, [2.0] * 100)
    assert 1 < len(result.differences) <= 20


def test_the_default_rule_text_is_derived_from_its_numbers():
    assert DEFAULT.formula == "|got - expected| <= 1e-4 * max(1, |expected|) + 1e-9"
    assert DEFAULT.formula in DEFAULT.sentence("en") and DEFAULT.formula in DEFAULT.sentence("zh")
    assert Tolerance(relative=1e-3, absolute=0.01, slack=0).formula == "|got - expected| <= max(0.01, 1e-3 * |expected|)"
    assert Tolerance(relative=0, absolute=0.5).formula == "|got - expected| <= 0.5 + 1e-9"


@pytest.mark.parametrize("got, expected, passes", [(0.109, 0.1, True), (0.111, 0.1, False), (2000.0, 1995.0, True),
                                                   (2000.0, 1980.0, False)])
def test_a_problem_tolerance_is_what_compare_applies(got, expected, passes):
    loose = Tolerance(relative=5e-3, absolute=0.01, slack=0)
    result = compare(got, expected, tolerance=loose)
    assert result.accepted is passes
    if not passes:
        assert result.differences[0].tolerance == loose.bound(expected)


@pytest.mark.parametrize("table, problem", [
    ({"relative": -1e-4}, "relative"), ({"absolute": "1e-4"}, "absolute"), ({"slak": 1e-9}, "slak"),
    ({"relative": 0, "absolute": 0}, "above 0"), ({"absolute": math.inf}, "absolute"),
])
def test_a_bad_comparison_table_says_what_is_wrong(table, problem):
    with pytest.raises(ValueError, match=problem):
        parse_tolerance(table)
