"""The problem-neutral checks of ``judge gen`` on a toy problem: integer labels, declared and inferred batch
permutation, thresholds against a call argument and on list outputs, per-channel kinks, the reference's own
boundaries, outputs the judge cannot compare, small values, and a reference that raises."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from judge.author.generate import check_case
from judge.author.reference import load_reference
from judge.package.cases import parse_case
from judge.package.problem import load_problem

REFERENCE = '''
import torch


class Solution:
    def class_means(self, x, labels):
        assert labels.dtype == torch.int64  # integer tensors are never cast
        return [round(float(x[labels == c].sum()), 4) for c in range(2)]

    def clip(self, x, max_norm):
        return {"total_norm": round(float(x.norm()), 4), "max_norm": max_norm}

    def stds(self, x):
        return [round(float(x.std()), 4)]

    def forward(self, model, x):
        return {"out": round(float(model(x).sum().detach()), 4)}

    def returns(self, what):
        return {"none": None, "bool": True, "tensor": torch.zeros(1), "small": {"tiny": 0.004},
                "fraction": {"fine": 0.004}, "fine": 0.5}[what]

    def crash(self, x):
        raise ValueError("not written yet")

    def _boundaries(self, *args):
        if len(args) == 1 and isinstance(args[0], torch.Tensor) and args[0].dim() == 2:
            return [(args[0].sum(), 1.0)]
        if len(args) == 1 and isinstance(args[0], torch.Tensor) and args[0].dim() == 1:
            raise ValueError("no boundaries for a 1-D input")
        return []
'''

TOML = '''
slug = "toy"
title = "Toy"
difficulty = "easy"
{methods}
[limits]
time_multiplier = 5.0
time_floor_s = 1.0
memory_mb = 1536

[fragility]
fractions = ["fine"]

[fragility.relative]
total_norm = "max_norm"

[fragility.thresholds.by_method]
stds = [2.0]
'''


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    root = tmp_path_factory.mktemp("toy")
    methods = "".join(f'[[methods]]\nname = "{m}"\n\n' for m in
                      ("class_means", "clip", "stds", "forward", "returns", "crash"))
    (root / "problems" / "toy").mkdir(parents=True)
    (root / "problems" / "toy" / "problem.toml").write_text(TOML.format(methods=methods))
    (root / "solutions").mkdir()
    (root / "solutions" / "toy.py").write_text(textwrap.dedent(REFERENCE))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUDGE_SOLUTIONS", str(root / "solutions"))
        problem = load_problem(root / "problems" / "toy")
        yield problem, load_reference(problem)


def _findings(toy, objects: dict, calls: list, permute: list | None = None) -> dict[str, list[str]]:
    problem, module = toy
    raw = {"objects": objects, "calls": calls, **({"permute": permute} if permute is not None else {})}
    case = parse_case(json.loads(json.dumps(raw)), Path("hidden/01-crafted.json"), "hidden",
                      {m["name"] for m in problem.methods})
    found: dict[str, list[str]] = {}
    for finding in check_case(problem, module, case).findings:
        found.setdefault(f"{finding.severity} {finding.rule}", []).append(finding.text)
    return found


X = {"kind": "tensor", "seed": 1, "shape": [64, 3], "init": "normal"}
LABELS = {"kind": "labels", "seed": 2, "n": 64, "num_classes": 2}
CLASS_MEANS = [{"method": "class_means", "args": ["$x", "$labels"]}]


def test_integer_labels_are_permuted_with_the_rows_they_label(toy):
    assert _findings(toy, {"x": X, "labels": LABELS}, CLASS_MEANS) == {}


def test_a_declared_permutation_is_used(toy):
    """Permuting x alone breaks the pairing with its labels: the sums change far beyond noise (R2)."""
    assert "error R2" in _findings(toy, {"x": X, "labels": LABELS}, CLASS_MEANS, permute=["x"])
    assert _findings(toy, {"x": X, "labels": LABELS}, CLASS_MEANS, permute=[]) == {}


def _norm_of_x() -> float:
    from judge.package.build import build_objects

    return float(build_objects({"x": X})["x"].double().norm())


@pytest.mark.parametrize("factor, rule", [(1.0005, "error R4"), (1.005, "warning R4"), (1.5, None)])
def test_a_statistic_is_guarded_against_a_call_argument(toy, factor, rule):
    found = _findings(toy, {"x": X}, [{"method": "clip", "args": ["$x", _norm_of_x() * factor]}])
    assert list(found) == ([rule] if rule else [])
    if rule:
        assert "total_norm" in found[rule][0]


@pytest.mark.parametrize("max_norm, rule", [(13.0, None), (13.0 * (1 + 2 ** -20), "error R4")])
def test_a_norm_exactly_at_max_norm_on_every_code_path_can_be_stored(toy, max_norm, rule):
    """3, 4 and 12 have the norm 13 in float64 and float32, batch permuted or not: the tie is the same bits
    everywhere, so the case may test "at most" on the boundary itself; a hair above it is a near miss."""
    x = {"kind": "tensor", "seed": 0, "shape": [3, 1], "init": "values", "values": [[3.0], [4.0], [12.0]]}
    found = _findings(toy, {"x": x}, [{"method": "clip", "args": ["$x", max_norm]}])
    assert [k for k in found if k.startswith("error")] == ([rule] if rule else []), found


def test_thresholds_guard_a_list_of_bare_numbers(toy):
    # five zeros and w: the unbiased std is w / sqrt(6), 0.02% above the threshold 2.0 here
    values = [[0.0, 0.0, 0.0], [0.0, 0.0, 2.0 * 6 ** 0.5 * 1.0002]]
    x = {"kind": "tensor", "seed": 0, "shape": [2, 3], "init": "values", "values": values}
    found = _findings(toy, {"x": x}, [{"method": "stds", "args": ["$x"]}])
    assert "error R4" in found and "[0][0]" in found["error R4"][0]


def test_a_kink_is_checked_per_channel_of_a_convolution(toy):
    # channel 0 = x - 1 + 1e-6 peaks at 1e-6 over N, H, W; channel 1 = 5x spreads the layer far wider
    x = {"kind": "tensor", "seed": 0, "shape": [2, 1, 2, 2], "init": "values",
         "values": [[[[1.0, 0.0], [-1.0, 0.5]]], [[[0.25, -2.0], [0.75, 1.0]]]]}
    model = {"kind": "mlp", "seed": 0, "layers": [
        {"conv2d": [1, 2, 1], "weight": {"init": "values", "values": [[[[1.0]]], [[[5.0]]]]},
         "bias": {"init": "values", "values": [-1.0 + 1e-6, 0.0]}},
        {"act": "relu"}]}
    found = _findings(toy, {"model": model, "x": x}, [{"method": "forward", "args": ["$model", "$x"]}])
    assert "error R5" in found and "channel" in found["error R5"][0]


def test_the_reference_names_its_own_boundaries(toy):
    x = {"kind": "tensor", "seed": 0, "shape": [1, 2], "init": "values", "values": [[0.5, 0.5000001]]}
    assert "error G1" in _findings(toy, {"x": x}, [{"method": "stds", "args": ["$x"]}])


def test_a_boundaries_probe_that_raises_is_a_finding_not_a_crash(toy):
    x = {"kind": "tensor", "seed": 0, "shape": [4], "init": "normal"}
    found = _findings(toy, {"x": x}, [{"method": "stds", "args": ["$x"]}])
    assert "Solution._boundaries raised ValueError: no boundaries for a 1-D input on call 0" in found["error G1"][0]


@pytest.mark.parametrize("what", ["none", "bool", "tensor"])
def test_an_output_the_judge_cannot_compare_is_an_authoring_error(toy, what):
    found = _findings(toy, {}, [{"method": "returns", "args": ["fine"]}, {"method": "returns", "args": [what]}])
    (text,) = found["error output"]
    assert "hidden/01-crafted" in text and "call 1 (returns)" in text


def test_small_values_warn_unless_declared_fractions(toy):
    assert list(_findings(toy, {}, [{"method": "returns", "args": ["small"]}])) == ["warning small"]
    assert _findings(toy, {}, [{"method": "returns", "args": ["fraction"]}]) == {}


def test_a_reference_that_raises_is_a_finding_naming_the_call(toy):
    found = _findings(toy, {"x": X}, [{"method": "stds", "args": ["$x"]}, {"method": "crash", "args": ["$x"]}])
    (text,) = found["error reference"]
    assert "call 1 (crash)" in text and "ValueError: not written yet" in text
