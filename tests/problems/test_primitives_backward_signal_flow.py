"""backward-signal-flow's reference against PyTorch itself: .grad after loss.backward() and full backward hooks."""

from __future__ import annotations

import math

import pytest
from torch import nn

from judge.author.reference import load_reference
from judge.package.build import build_objects
from judge.package.problem import find_problem

SLUG = "backward-signal-flow"


def _reference():
    return load_reference(find_problem(SLUG)).Solution()


def _measured_cases():
    return [c for c in find_problem(SLUG).cases if "model" in c.objects]


@pytest.mark.filterwarnings("ignore:Full backward hook is firing")
@pytest.mark.parametrize("case", _measured_cases(), ids=lambda c: c.id)
def test_reference_matches_autograd_and_hooks(case):
    solution = _reference()
    objects = build_objects(case.objects)
    model, x, labels = objects["model"], objects["x"], objects["labels"]
    linears = [m for m in model.children() if isinstance(m, nn.Linear)]
    signal = []
    for m in linears:
        m.register_full_backward_hook(lambda mod, gin, gout: signal.insert(0, gout[0]))
    model.zero_grad(set_to_none=True)
    nn.CrossEntropyLoss()(model(x), labels).backward()
    log = lambda t: math.log10(max(t.norm().item(), 1e-30))
    fresh = build_objects(case.objects)
    assert solution.weight_log_norms(fresh["model"], fresh["x"], fresh["labels"]) == pytest.approx(
        [round(log(m.weight.grad), 4) for m in linears], abs=1e-4)
    fresh = build_objects(case.objects)
    assert solution.signal_log_norms(fresh["model"], fresh["x"], fresh["labels"]) == pytest.approx(
        [round(log(g), 4) for g in signal], abs=1e-4)
