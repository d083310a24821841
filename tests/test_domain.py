"""``[[domain]]``: the inputs a statement rules out are data that every tool holds to. A malformed rule is bad
input at load; ``judge gen`` (and so ``judge verify``) rejects a case that breaks one; the inputs ``judge mutate``
generates keep to them; every bundled case keeps to its problem's rules."""

from __future__ import annotations

import copy
import shutil

import pytest

from judge.author.generate import check_case
from judge.author.mutation.coverage import Covering
from judge.author.mutation.variants import Change, build
from judge.author.reference import load_reference
from judge.errors import BadInput
from judge.package.cases import parse_case
from judge.package.domain import _reach, broken, parameters
from judge.package.problem import available, find_problem, load_problem
from tests.support.cli import REPO

SLUG = "train-and-diagnose"
"""its diagnose_run record never has stopped_at 0 (the loss at step 0 is at most 1e4) and has grad_norm_0 > 0"""


def _diagnose_case():
    problem = find_problem(SLUG)
    case = next(c for c in problem.cases if c.id == "sample/03-diagnose-rule-table")
    index = next(i for i, call in enumerate(case.raw["calls"]) if call["method"] == "diagnose_run")
    return problem, case, index


def test_parameters_come_from_the_signature_without_self():
    assert parameters("train(self, model: nn.Module, x: torch.Tensor, config: Dict[str, Any]) -> Dict[str, Any]") \
        == ["model", "x", "config"]


@pytest.mark.parametrize("value, rule", [(0, "stopped_at"), (-1, None), (3, None), (0.0, "stopped_at")])
def test_a_literal_argument_is_held_to_its_rule_by_key(value, rule):
    problem, case, index = _diagnose_case()
    raw = copy.deepcopy(case.raw)
    raw["calls"][index]["args"][0]["stopped_at"] = value
    found = broken(problem.domain, raw)
    assert [(i, r.key[-1], v) for i, r, v in found] == ([(index, rule, value)] if rule else [])


@pytest.mark.parametrize("first, breaks", [(0.0, True), (-0.5, True), (1e-9, False)])
def test_a_list_entry_is_reached_by_its_index(first, breaks):
    problem, case, index = _diagnose_case()
    raw = copy.deepcopy(case.raw)
    raw["calls"][index]["args"][0]["grad_norm"][0] = first
    assert bool(broken(problem.domain, raw)) is breaks


@pytest.mark.parametrize("key, given, reached", [
    ("*.loss", [{"loss": 1.0}, {"loss": None}, {"grad_norm": 2.0}, {"loss": -2.0}], [1.0, None, -2.0]),
    ("*", {"a": 1, "b": [2]}, [1, [2]]),
    ("1.*", [[0], [1, 2]], [1, 2]),
    ("*", 3, []),
    ("*.loss", [], []),
])
def test_a_star_reaches_each_item_of_a_list_or_dict(key, given, reached):
    assert _reach(given, tuple(key.split("."))) == reached


@pytest.mark.parametrize("loss, breaks", [(-0.5, True), (0.0, True), (None, False), (0.25, False)])
def test_every_record_of_a_log_is_held_through_a_star(loss, breaks):
    problem = find_problem("training-log-doctor")  # summarize(log): losses positive, or None when not finite
    case = next(c for c in problem.cases if c.id == "hidden/06-two-records")
    raw = copy.deepcopy(case.raw)
    raw["calls"][0]["args"][0][-1]["loss"] = loss  # the last record: no rule names it by its index
    found = broken(problem.domain, raw)
    assert [(i, r.where, v) for i, r, v in found] == ([(0, "summarize(log).*.loss", loss)] if breaks else [])


def test_an_object_argument_is_held_through_its_specification(tmp_path):
    root = tmp_path / SLUG
    shutil.copytree(REPO / "problems" / SLUG, root)
    toml = root / "problem.toml"
    toml.write_text(toml.read_text() + '\n[[domain]]\nmethod = "train"\nargument = "config"\nkey = "steps"\n'
                    'min = 2\nbecause = "a test: at least two steps"\n')
    problem = load_problem(root)
    case = next(c for c in problem.cases if c.raw["calls"][0]["method"] == "train")
    raw = copy.deepcopy(case.raw)
    name = case.raw["calls"][0]["args"][3][1:]
    raw["objects"][name]["steps"] = 1
    found = broken(problem.domain, raw)
    assert [(i, r.where, v) for i, r, v in found] == [(0, "train(config).steps", 1)]


@pytest.mark.parametrize("table, words", [
    ('method = "fit"\nargument = "record"\nbecause = "x"', "method 'fit'"),
    ('method = "diagnose_run"\nargument = "log"\nbecause = "x"',
     "argument 'log' of diagnose_run, whose signature has record"),
    ('method = "diagnose_run"\nargument = "record"', "because are needed"),
    ('method = "diagnose_run"\nargument = "record"\nmin = "0"\nbecause = "x"', "min and max are numbers"),
    ('method = "diagnose_run"\nargument = "record"\nbecause = " "', "because: the statement's clause"),
])
def test_a_malformed_rule_is_bad_input_naming_it(tmp_path, table, words):
    root = tmp_path / SLUG
    shutil.copytree(REPO / "problems" / SLUG, root)
    toml = root / "problem.toml"
    toml.write_text(toml.read_text() + f"\n[[domain]]\n{table}\n")
    with pytest.raises(BadInput, match=r"problem\.toml: \[\[domain\]\]") as raised:
        load_problem(root)
    assert words in str(raised.value)


def test_gen_rejects_a_case_that_breaks_a_rule_and_keeps_it_otherwise():
    problem, case, index = _diagnose_case()
    module = load_reference(problem)
    assert not [f for f in check_case(problem, module, case).findings if f.rule == "domain"]
    raw = copy.deepcopy(case.raw)
    raw["calls"][index]["args"][0]["stopped_at"] = 0
    bad = parse_case(raw, case.path, case.visibility, {m["name"] for m in problem.methods})
    found = [f for f in check_case(problem, module, bad).findings if f.rule == "domain"]
    assert len(found) == 1 and found[0].severity == "error"
    assert f"call {index} has diagnose_run(record).stopped_at = 0, which the statement rules out" in found[0].text


def test_generated_inputs_keep_to_the_rules():
    problem, case, index = _diagnose_case()
    covering = Covering(problem)
    path = ("calls", index, "args", 0, "stopped_at")
    assert build(problem, covering, case, [Change(path, -1, 0)], "sample.ruled-out", index) is None
    kept = build(problem, covering, case, [Change(path, -1, 2)], "sample.allowed", index)
    assert kept is not None and kept.case.raw["calls"][0]["args"][0]["stopped_at"] == 2


@pytest.mark.parametrize("slug", available())
def test_every_bundled_case_keeps_to_its_problem_s_rules(slug):
    problem = find_problem(slug)
    assert not {c.id: found for c in problem.cases if (found := broken(problem.domain, c.raw))}
