"""After each call the worker checks that every judge-built object still runs the code it was built with: a
tripwire inside the submission's own process, not a boundary (docs/security.md)."""

from __future__ import annotations

import copy

import torch

from judge import messages
from judge.package import kinds
from judge.package.build import build_objects
from tests.support.cli import REPO, judge_json

MODEL = {"kind": "mlp", "seed": 3, "layers": [{"custom": "linear", "linear": [3, 3], "bug": "weight_grad_half"},
                                             {"custom": "tanh"}, {"custom": "sigmoid", "bug": "missing_factor"}]}
BRANCHED = {"kind": "branched", "seed": 3, "trunk": [{"linear": [4, 4]}, {"act": "tanh"}],
            "heads": [{"name": "a", "layers": [{"linear": [4, 2]}]},
                      {"name": "b", "layers": [{"linear": [4, 2]}], "input": "detach"}]}


def _built():
    return build_objects({"model": MODEL, "branched": BRANCHED, "x": {"kind": "tensor", "seed": 1, "shape": [2, 3], "init": "normal"}})


def test_every_rule_and_route_is_sealed():
    objects = _built()
    sealed = kinds.seals(objects)
    assert [(type(m).__name__, name) for m, name, _ in sealed] == [
        ("CustomLinear", "_rule"), ("CustomTanh", "_rule"), ("CustomSigmoid", "_rule"), ("Branched", "_routes")]
    assert not kinds.tampered(sealed)


def test_values_may_change_and_code_may_not():
    objects = _built()
    sealed = kinds.seals(objects)
    model, branched = objects["model"], objects["branched"]
    model.double()
    with torch.no_grad():
        model[0].weight.mul_(2.0)
    model.zero_grad()
    copy.deepcopy(model)[0]._rule = lambda *a: a  # a copy is the submission's own
    assert not kinds.tampered(sealed)
    rule = model[2]._rule
    model[2]._rule = lambda a: a * (1 - a)
    assert kinds.tampered(sealed)
    model[2]._rule = rule  # put back before the call returns: the tripwire cannot tell (the cases must)
    assert not kinds.tampered(sealed)
    branched._routes["b"] = branched._routes["a"]  # the same dict, another route in it
    assert kinds.tampered(sealed)


def test_a_call_that_leaves_another_backward_is_a_runtime_error_in_the_judge_s_words(write_submission):
    attack = (REPO / "tests" / "adversarial" / "125-swaps-the-backward-and-keeps-it.py").read_text()
    path = write_submission((REPO / "solutions" / "backprop-bug-finder.py").read_text() + "\n\n" + attack)
    code, report = judge_json(["run", "backprop-bug-finder", str(path)])
    assert code == 1 and report["verdict"] == "runtime_error"
    errors = [c["error"] for t in report["tests"] for c in t["extra_data"]["calls"] if c.get("error")]
    assert errors and all(e["msg"] == messages.say("replaced_judge_code") for e in errors)
