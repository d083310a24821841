"""model-checkup: the reference agrees with PyTorch's own primitives.

On every case that measures a model (the sample's first, and the hidden ones, which between them hold every
activation the definition names), the report is rebuilt from PyTorch alone: the loss is ``F.cross_entropy``
(checked against the log-softmax picked at the labels), the gradient and weight norms are
``torch.nn.utils.get_total_norm`` on single tensors, the entropy is ``Categorical(logits=z).entropy()``, the
local derivatives are autograd's own (a vector-Jacobian product of each Sigmoid/Tanh), dead units come from
forward hooks on the ReLUs, and the init targets use ``nn.init.calculate_gain`` with the fans of
``nn.init._calculate_fan_in_and_fan_out``; everything else falls through to gain 1.
"""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from judge.author.reference import load_reference
from judge.package.build import build_objects, resolve_args
from judge.package.problem import find_problem

PROBLEM = find_problem("model-checkup")
CHECKUPS = [(case, call) for case in PROBLEM.cases for call in case.calls if call["method"] == "checkup"]


def _reference():
    return load_reference(PROBLEM).Solution()


def _gain(following: nn.Module | None) -> tuple[float, bool]:
    """(gain, fan_in only?) of the init target for a Linear followed by ``following``."""
    if isinstance(following, nn.ReLU):
        return nn.init.calculate_gain("relu"), True
    if isinstance(following, nn.LeakyReLU):
        return nn.init.calculate_gain("leaky_relu", following.negative_slope), True
    if isinstance(following, nn.Tanh):
        return nn.init.calculate_gain("tanh"), False
    if isinstance(following, nn.Sigmoid):
        return nn.init.calculate_gain("sigmoid"), False
    return nn.init.calculate_gain("linear"), False  # GELU, SiLU, another Linear or the end of the model


def _from_primitives(model: nn.Sequential, x: torch.Tensor, labels: torch.Tensor, lr: float) -> dict:
    model, x = model.double(), x.double()
    children = list(model.children())
    relu_out, saturated = [], []
    hooks = [m.register_forward_hook(lambda _m, _i, out: relu_out.append(out.detach()))
             for m in children if isinstance(m, nn.ReLU)]
    for m in model.parameters():
        m.grad = None
    z = model(x)
    for h in hooks:
        h.remove()
    h = x
    for m in children:
        inp = h.detach().requires_grad_(True)
        h = m(h)
        if isinstance(m, (nn.Sigmoid, nn.Tanh)):
            (d,) = torch.autograd.grad(m(inp), inp, torch.ones_like(inp))
            saturated.append((d < 0.1).double().mean().item())

    loss = F.cross_entropy(z, labels)
    picked = -torch.log_softmax(z, dim=1).gather(1, labels[:, None]).mean()
    assert loss.item() == pytest.approx(picked.item(), rel=1e-12)
    loss.backward()

    zd = z.detach()
    entropy = torch.distributions.Categorical(logits=zd).entropy().mean().item()
    report = {"dead_fraction": [(a == 0).all(dim=0).double().mean().item() for a in relu_out],
              "saturated_fraction": saturated,
              "entropy_ratio": entropy / math.log(zd.shape[1]),
              "max_spread": (zd.amax(dim=1) - zd.amin(dim=1)).max().item(),
              "grad_log10": [], "update_log10": [], "init_ratio": []}
    for i, m in enumerate(children):
        if not isinstance(m, nn.Linear):
            continue
        g = torch.nn.utils.get_total_norm([m.weight.grad]).item()
        w = torch.nn.utils.get_total_norm([m.weight.detach()]).item()
        report["grad_log10"].append(math.log10(max(g, 1e-30)))
        report["update_log10"].append(math.log10(max(lr * g / w, 1e-12)))
        fan_in, fan_out = nn.init._calculate_fan_in_and_fan_out(m.weight)
        gain, fan_in_only = _gain(children[i + 1] if i + 1 < len(children) else None)
        target = gain / math.sqrt(fan_in) if fan_in_only else gain * math.sqrt(2.0 / (fan_in + fan_out))
        report["init_ratio"].append(torch.std(m.weight.detach(), correction=1).item() / target)
    return report


def _close(got, want) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and set(got) == set(want) and all(_close(got[k], want[k]) for k in want)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_close, got, want))
    return abs(got - want) <= 1e-4 * max(1.0, abs(want)) + 1e-9


def test_a_sample_measures_a_model():
    assert any(not case.hidden for case, _ in CHECKUPS)


@pytest.mark.parametrize("case,call", CHECKUPS, ids=[f"{c.id}-{c.calls.index(k)}" for c, k in CHECKUPS])
def test_reference_matches_pytorch_primitives(case, call):
    got = _reference().checkup(*resolve_args(call["args"], build_objects(case.objects)))
    want = _from_primitives(*resolve_args(call["args"], build_objects(case.objects)))
    assert _close(got, want), (got, want)


def test_the_statement_gains_are_pytorchs():
    assert nn.init.calculate_gain("tanh") == pytest.approx(5.0 / 3.0)
    assert nn.init.calculate_gain("relu") == pytest.approx(math.sqrt(2.0))
    assert nn.init.calculate_gain("leaky_relu", 0.3) == pytest.approx(math.sqrt(2.0 / 1.09))


def test_pytorch_default_linear_init_is_bad_init_before_a_relu():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4))
    x, labels = torch.randn(32, 64), torch.randint(0, 4, (32,))
    report = _reference().checkup(model, x, labels, 0.01)
    assert report["init_ratio"][0] == pytest.approx(1 / math.sqrt(6), abs=0.02)
    assert "bad_init" in _reference().findings(report)["all"]
