"""disconnected-parameters: the reference agrees with PyTorch's own view of the graph on every measured case.

Three primitives decide the same facts independently of ``.grad`` bookkeeping: ``torch.autograd.grad`` with
``allow_unused=True`` returns ``None`` exactly for the parameters outside the loss's graph,
``torch.nn.utils.get_total_norm`` gives each gradient's L2 norm, and one ``torch.optim.SGD`` step moves exactly
the parameters whose status is ``'ok'`` (it skips ``None`` gradients, and a zero gradient moves nothing).
"""

from __future__ import annotations

import pytest
import torch
from torch import nn

from judge.author.reference import load_reference
from judge.package.build import build_objects
from judge.package.problem import find_problem

SLUG = "disconnected-parameters"


def _reference():
    return load_reference(find_problem(SLUG)).Solution()


def _measured_cases():
    problem = find_problem(SLUG)
    return [c for c in problem.cases if any(call["method"] == "parameter_status" for call in c.calls)]


CASES = _measured_cases()


def _fresh(case):
    objects = build_objects(case.objects)
    return objects["model"], objects["x"], objects["y"]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_status_and_norms_match_autograd_grad(case):
    status = _reference().parameter_status(*_fresh(case))
    norms = _reference().gradient_norms(*_fresh(case))
    model, x, y = _fresh(case)
    named = dict(model.named_parameters())
    trainable = [n for n, p in named.items() if p.requires_grad]
    grads = dict(zip(trainable, torch.autograd.grad(nn.MSELoss()(model(x), y), [named[n] for n in trainable],
                                                    allow_unused=True)))
    assert list(status) == list(named) == list(norms)
    for name, p in named.items():
        g = grads.get(name)
        want = ('frozen' if not p.requires_grad else 'no_grad' if g is None
                else 'zero_grad' if torch.count_nonzero(g) == 0 else 'ok')
        assert status[name] == want, name
        want_norm = 0.0 if g is None else torch.nn.utils.get_total_norm([g], norm_type=2.0).item()
        assert norms[name] == pytest.approx(want_norm, abs=1e-4, rel=1e-4), name


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_an_sgd_step_moves_exactly_the_ok_parameters(case):
    status = _reference().parameter_status(*_fresh(case))
    model, x, y = _fresh(case)
    model.zero_grad(set_to_none=True)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    nn.MSELoss()(model(x), y).backward()
    torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1).step()
    moved = {n: not torch.equal(before[n], p.detach()) for n, p in model.named_parameters()}
    assert moved == {n: s == 'ok' for n, s in status.items()}
    assert 'ok' in status.values()  # every case trains something
