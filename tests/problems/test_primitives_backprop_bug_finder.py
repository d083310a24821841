"""backprop-bug-finder: the reference's verdicts agree with PyTorch's own gradient checkers.

``torch.autograd.gradcheck`` compares a function's analytic Jacobian with finite differences by its own rule
(entry by entry, ``atol``/``rtol``), independently of the reference's norm-based relative error; on the judge's
custom layers it passes exactly when the backward is correct, and ``gradgradcheck`` passes on the correct ones
too. On every sample case, a parameter (or a child's input) fails the reference's check exactly when
``gradcheck`` of the loss as a function of that tensor fails, and ``suspect`` is the largest child index that
``gradcheck`` blames (the tie case's zeroed bias gradient, whose relative error is exactly ``tol = 1.0``, passes
by the strict rule where ``gradcheck`` fails it). The autograd gradients with respect to each child's input are also what ``torch.func.vjp``
gives (the layers use ``setup_context``).
"""

from __future__ import annotations

import pytest
import torch
from torch import nn
from torch.autograd import gradcheck, gradgradcheck
from torch.func import functional_call, vjp

from judge.author.reference import load_reference
from judge.package.build import build_objects
from judge.package.kinds.autograd_layers import LAYERS as CUSTOM
from judge.package.kinds.custom import BUGS
from judge.package.problem import find_problem

SLUG = "backprop-bug-finder"


def _reference():
    return load_reference(find_problem(SLUG)).Solution()


CASES = [c for c in find_problem(SLUG).cases if not c.hidden]
CHECKS = [(case, i) for case in CASES for i, call in enumerate(case.calls)]


def _fresh(case):
    objects = build_objects(case.objects)
    return objects["model"], objects["x"], objects["y"]


def _float64(case):
    model, x, y = _fresh(case)
    return model.double(), x.double(), y.double()


def _passes(f, inputs) -> bool:
    return gradcheck(f, inputs, eps=1e-6, atol=1e-6, rtol=1e-4, raise_exception=False)


def _layer(kind: str, bug: str) -> nn.Module:
    gen = torch.Generator().manual_seed(3)
    module, rules = CUSTOM[kind]
    rule = rules[BUGS[kind].index(bug)]
    if kind == "linear":
        return module(torch.randn(3, 3, generator=gen, dtype=torch.float64),
                      torch.randn(3, generator=gen, dtype=torch.float64), rule)
    return module(rule)


@pytest.mark.parametrize("kind, bug", [(k, b) for k, bugs in BUGS.items() for b in bugs])
def test_a_custom_layer_passes_gradcheck_exactly_when_its_backward_is_correct(kind, bug):
    layer = _layer(kind, bug)
    x = torch.randn(4, 3, generator=torch.Generator().manual_seed(4), dtype=torch.float64, requires_grad=True)
    params = tuple(layer.parameters())
    f = (lambda h, *p: functional_call(layer, dict(zip(("weight", "bias"), p)), (h,))) if params else layer
    assert _passes(f, (x, *[p.detach().requires_grad_(True) for p in params])) is (bug == "none")
    if bug == "none":
        assert gradgradcheck(f, (x, *[p.detach().requires_grad_(True) for p in params]), raise_exception=False)


@pytest.mark.parametrize("case, index", CHECKS, ids=[f"{c.id}-{i}" for c, i in CHECKS])
def test_verdicts_agree_with_gradcheck(case, index):
    call = case.calls[index]
    eps, tol = call["args"][3], call["args"][4]
    got = getattr(_reference(), call["method"])(*_fresh(case), eps, tol)
    model, x, y = _float64(case)
    children = list(model.children())
    names = [n for n, _ in model.named_parameters()]

    def param_loss(name):
        return lambda p: nn.MSELoss()(functional_call(model, {name: p}, (x,)), y)

    def tail_loss(k):
        return lambda h: nn.MSELoss()(nn.Sequential(*children[k:])(h), y)

    inputs = [x]
    with torch.no_grad():
        for child in children[:-1]:
            inputs.append(child(inputs[-1]))
    # a zeroed gradient's rel is exactly 1.0: at tol = 1.0 (the tie case) it passes, where gradcheck fails it
    ties = {n for n, r in _reference().check_parameters(*_fresh(case), eps, tol).items() if r["rel_error"] == tol}
    param_ok = {n: n in ties or _passes(param_loss(n), (dict(model.named_parameters())[n].detach().clone().requires_grad_(True),))
                for n in names}
    input_ok = [_passes(tail_loss(k), (h.clone().requires_grad_(True),)) for k, h in enumerate(inputs)]
    if call["method"] == "check_parameters":
        assert list(got) == names
        assert {n: r["verdict"] for n, r in got.items()} == {n: "pass" if ok else "fail" for n, ok in param_ok.items()}
    elif call["method"] == "check_module_inputs":
        assert got == ["pass" if ok else "fail" for ok in input_ok]
    else:
        blamed = [k for k, ok in enumerate(input_ok) if not ok] + [int(n.split(".")[0]) for n, ok in param_ok.items() if not ok]
        assert got == max(blamed, default=-1)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_input_gradients_are_what_torch_func_vjp_gives(case):
    model, x, y = _float64(case)
    children = list(model.children())
    h = x
    for k, child in enumerate(children):
        tail = nn.Sequential(*children[k:])
        leaf = h.detach().clone().requires_grad_(True)
        (by_autograd,) = torch.autograd.grad(nn.MSELoss()(tail(leaf), y), leaf)
        loss, pull = vjp(lambda v: nn.MSELoss()(tail(v), y), h.detach())
        (by_vjp,) = pull(torch.ones_like(loss))
        torch.testing.assert_close(by_vjp, by_autograd, rtol=1e-12, atol=0.0)
        with torch.no_grad():
            h = child(h)
