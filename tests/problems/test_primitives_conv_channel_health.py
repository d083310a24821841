"""conv-channel-health: the reference agrees with PyTorch's own primitives.

``nn.init._calculate_fan_in_and_fan_out`` gives the fan-in (kernel included), ``nn.init.calculate_gain('relu')``
Kaiming's gain, ``F.conv2d`` each convolution's output and ``torch.std_mean(correction=1)`` its statistics, on every
sample case that measures a model; and PyTorch's own initialisers land where the statement says: the
default Conv2d init has ``init_ratio`` ≈ 1/√6 ≈ 0.41 ('bad_init'), ``kaiming_normal_`` ≈ 1 ('healthy').
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

PROBLEM = find_problem("conv-channel-health")
SAMPLE_REPORTS = [(case, call) for case in PROBLEM.cases if not case.hidden
                  for call in case.calls if call["method"] == "conv_report"]


def _reference():
    return load_reference(PROBLEM).Solution()


def _from_primitives(model: nn.Sequential, x: torch.Tensor) -> list[dict]:
    rows = []
    with torch.no_grad():
        for layer in model:
            if isinstance(layer, nn.Conv2d):
                fan_in, _ = nn.init._calculate_fan_in_and_fan_out(layer.weight)
                w_std, _ = torch.std_mean(layer.weight.double(), correction=1)
                z = F.conv2d(x.double(), layer.weight.double(), layer.bias.double(), layer.stride, layer.padding)
                z_std, z_mean = torch.std_mean(z, correction=1)
                alive = torch.amax(z, dim=(0, 2, 3)) > 0
                rows.append({"fan_in": fan_in, "weight_std": w_std.item(),
                             "init_ratio": w_std.item() / (nn.init.calculate_gain("relu") / math.sqrt(fan_in)),
                             "out_mean": z_mean.item(), "out_std": z_std.item(),
                             "dead_channels": 1.0 - alive.double().mean().item()})
            x = layer(x)
    return rows


def _close(got, want) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and set(got) == set(want) and all(_close(got[k], want[k]) for k in want)
    return abs(got - want) <= 1e-4 * max(1.0, abs(want)) + 1e-9


def test_samples_measure_models():
    assert SAMPLE_REPORTS


@pytest.mark.parametrize("case,call", SAMPLE_REPORTS, ids=[c.name for c, _ in SAMPLE_REPORTS])
def test_reference_matches_pytorch_primitives(case, call):
    model, x = resolve_args(call["args"], build_objects(case.objects))
    got = _reference().conv_report(model, x)
    want = _from_primitives(model, x)
    assert len(got) == len(want) and all(_close(g, w) for g, w in zip(got, want))
    assert all(type(g["fan_in"]) is int for g in got)


@pytest.mark.parametrize("init, ratio, verdict", [
    (None, 1 / math.sqrt(6), "bad_init"),                                          # PyTorch's default: U(±1/√fan_in)
    (lambda w: nn.init.kaiming_normal_(w, mode="fan_in", nonlinearity="relu"), 1.0, "healthy"),
])
def test_pytorch_initialisers_land_where_the_statement_says(init, ratio, verdict):
    torch.manual_seed(0)
    conv = nn.Conv2d(16, 16, 3)                                                     # 2304 weights, fan_in 144
    if init is not None:
        init(conv.weight)
    solution = _reference()
    report = solution.conv_report(nn.Sequential(conv, nn.ReLU()), torch.randn(2, 16, 6, 6))
    assert report[0]["fan_in"] == 144
    assert report[0]["init_ratio"] == pytest.approx(ratio, rel=0.05)
    assert solution.diagnose_conv(report) == verdict
