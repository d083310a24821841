"""The fragility rules of ``judge gen`` reject what they claim to, and the builder is deterministic."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from judge.author.fragility import compare_configurations, guards, thresholds
from judge.author.generate import check_case
from judge.author.reference import load_reference
from judge.package.build import build_objects, checksum
from judge.package.cases import parse_case
from judge.package.problem import find_problem

PROBLEM = find_problem("training-diagnostics")
METHODS = {m["name"] for m in PROBLEM.methods}


def _case(layers: list, x: list | dict, method: str = "compute_activation_stats") -> object:
    x_spec = {"kind": "tensor", "seed": 1, "shape": [len(x), len(x[0])], "init": "values", "values": x} \
        if isinstance(x, list) else x
    raw = {"objects": {"model": {"kind": "mlp", "seed": 0, "layers": layers}, "x": x_spec},
           "calls": [{"method": method, "args": ["$model", "$x"]}]}
    return parse_case(raw, Path("crafted.json"), "hidden", METHODS)


def _values(rows: list) -> dict:
    return {"init": "values", "values": rows}


def _reason(case) -> str | None:
    errors = check_case(PROBLEM, load_reference(PROBLEM), case).errors
    return str(errors[0]) if errors else None


def test_a_sound_case_is_kept():
    layers = [{"linear": [4, 8], "weight": {"init": "kaiming_normal"}}, {"act": "relu"}, {"linear": [8, 2]}]
    assert _reason(_case(layers, {"kind": "tensor", "seed": 3, "shape": [16, 4], "init": "normal"})) is None


def test_r1_huge_values():
    layers = [{"linear": [4, 64], "weight": {"init": "normal", "std": 1000.0}}, {"act": "relu"},
              {"linear": [64, 4], "weight": {"init": "normal", "std": 1000.0}}]
    assert _reason(_case(layers, {"kind": "tensor", "seed": 3, "shape": [16, 4], "init": "normal"})).startswith("R1")


def test_r4_statistic_at_a_threshold():
    # outputs [0, w] have unbiased std |w| / sqrt(2): w = 0.1 * sqrt(2) puts it on the 0.1 threshold
    layers = [{"linear": [1, 1], "weight": _values([[0.1 * 2**0.5]]), "bias": _values([0.0])}]
    assert _reason(_case(layers, [[0.0], [1.0]])).startswith("R4")


def test_r5_neuron_at_the_kink():
    # neuron 0 peaks at 1e-6 while the layer's spread is about 4: dead or alive depends on rounding
    layers = [{"linear": [1, 2], "weight": _values([[(1 + 1e-6) / 2], [5.0]]),
               "bias": _values([(1e-6 - 1) / 2, 0.0])}, {"act": "relu"}]
    assert _reason(_case(layers, [[1.0], [-1.0]])).startswith("R5")


def test_r5_sigmoid_underflow():
    layers = [{"linear": [1, 2], "weight": _values([[1.0], [1.0]]), "bias": _values([-100.0, 0.5])},
              {"act": "sigmoid"}, {"linear": [2, 2]}]
    assert _reason(_case(layers, [[0.0], [1.0]])).startswith("R5")


@pytest.mark.parametrize("reference, variant, rule", [
    ([[{"std": 1.0}]], [[{"std": 1.0 + 3e-5}]], "R2"),      # noise over a quarter of the 1e-4 budget
    ([[{"std": 1.0}]], [[{"std": 1.0 + 2e-5}]], None),
    ([[{"std": 2e6}]], [[{"std": 2e6}]], "R1"),
    ([[{"std": float("nan")}]], [[{"std": float("nan")}]], "R1"),
    (["healthy"], ["dead_neurons"], "R3"),
    ([[{"norm": 1000.5}]], [[{"norm": 1000.5}]], "R4"),
    ([[{"norm": 1e-5 * 1.0005}]], [[{"norm": 1e-5 * 1.0005}]], "R4"),
    ([[{"mean": 0.1}]], [[{"mean": 0.1}]], None),            # only the thresholded statistics count for R4
])
def test_fragility_rules(reference, variant, rule):
    methods = ["compute_activation_stats"]
    found = compare_configurations(reference, {"variant": variant}, methods, PROBLEM.tolerance) + [
        f for f in thresholds(reference, methods, [[]], [None], guards(PROBLEM), {"float64, variant": variant})
        if f.severity == "error"]
    assert [f.rule for f in found][:1] == ([rule] if rule else [])


F32_STEP = 2.0 ** -14
"""the spacing of float32 values at 1000"""


@pytest.mark.parametrize("float64, float32, rule", [
    (1000.0, 1000.0, None),                    # exactly the threshold everywhere: the tie a > against >= lives on
    (1000.0, 1000.0 + F32_STEP, "R4"),         # exact in float64 only: float32 decides the other way
    (1000.0 + 1e-9, 1000.0, "R4"),             # a near miss in float64 is no tie, whatever float32 gives
    (1e-5, float(torch.tensor(1e-5, dtype=torch.float32)), None),  # 1e-5 is no float32 value: its nearest one
    (1e-5, 1e-5, "R4"),                        # ... while the float64 value is not what float32 arithmetic gives
])
def test_a_value_exactly_on_its_threshold_in_every_configuration_is_a_tie_not_a_near_miss(float64, float32, rule):
    methods = ["compute_activation_stats"]
    found = thresholds([[{"norm": float64}]], methods, [[]], [None], guards(PROBLEM),
                       {"float32, 1 thread": [[{"norm": float32}]], "float64, another path": [[{"norm": float64}]]})
    assert [f.rule for f in found if f.severity == "error"] == ([rule] if rule else [])


def test_building_is_deterministic_and_checksummed():
    case = PROBLEM.cases[0]
    first, second = build_objects(case.objects), build_objects(case.objects)
    assert checksum(first) == checksum(second) == case.build_sha256
    changed = {**case.objects, "x": {**case.objects["x"], "seed": case.objects["x"]["seed"] + 1}}
    assert checksum(build_objects(changed)) != case.build_sha256


@pytest.mark.parametrize("scheme", ["default", "zeros", "normal", "uniform", "kaiming_normal", "kaiming_uniform",
                                    "xavier_normal", "xavier_uniform"])
def test_every_init_scheme_builds_float32(scheme):
    layers = [{"linear": [3, 5], "weight": {"init": scheme}, "bias": {"init": "constant", "value": 0.5}}]
    objects = build_objects({"m": {"kind": "mlp", "seed": 1, "layers": layers, "stale_grad": {"init": "normal"}}})
    weight = objects["m"][0].weight
    assert weight.dtype.is_floating_point and str(weight.dtype) == "torch.float32"
    assert weight.grad is not None and float(objects["m"][0].bias.detach()[0]) == 0.5
