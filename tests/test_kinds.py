"""The registry of object kinds: every kind builds, checksums, describes and rejects malformed JSON, and the
registry, ``docs/kinds.md``, the case-format docstring and the describer name the same kinds."""

from __future__ import annotations

import copy
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
import torch
from torch import nn

import judge.package
from judge.errors import BadInput
from judge.package import kinds
from judge.package.build import build_objects, checksum, seeded
from judge.package.cases import parse_case
from judge.package.kinds import describe_object
from judge.package.kinds import state
from judge.package.kinds.autograd_layers import LAYERS as CUSTOM, LinearFunction, SigmoidFunction, TanhFunction
from judge.package.kinds.layers import kind_of
from judge.package.kinds.models import _Model
from tests.support.kinds_doc import DOCUMENTED, EXAMPLES

FAMILIES: dict[str, list[str]] = {
    "Object kinds": kinds.OBJECTS.names(),
    "Layer kinds": kinds.LAYERS.names(),
    "Activations": sorted(kinds.ACTIVATIONS),
    "INIT schemes": sorted(kinds.SCHEMES),
    "Model state": sorted(state.FIELDS),
}
"""each section of docs/kinds.md and the registry it documents"""


def _parse(objects: dict[str, Any], **extra: Any):
    raw = {"objects": objects, "calls": [{"method": "f", "args": []}], **extra}
    return parse_case(raw, Path("probe.json"), "hidden", {"f"})


def _invalid(objects: dict[str, Any], field: str, **extra: Any) -> None:
    with pytest.raises(BadInput) as caught:
        _parse(objects, **extra)
    message = str(caught.value)
    assert caught.value.key == "case_invalid" and "probe.json" in message, message
    assert f"field {field}:" in message, message


def _digest(objects: dict[str, Any]) -> str:
    return checksum(build_objects(_parse(objects).objects))


# --- the registry, the docs and the describer agree ------------------------------------------------------------

def test_docs_document_exactly_the_registered_kinds():
    assert {s: sorted(t) for s, t in DOCUMENTED.items() if s in FAMILIES} == FAMILIES
    assert set(FAMILIES) <= set(DOCUMENTED)


def test_the_case_format_docstring_names_every_kind():
    text = judge.package.__doc__
    missing = [name for names in FAMILIES.values() for name in names if f"``{name}``" not in text]
    assert missing == []


def _uses(value: Any, found: dict[str, set[str]]) -> dict[str, set[str]]:
    """Every kind a spec uses, by docs section."""
    if isinstance(value, dict):
        if value.get("kind") in kinds.OBJECTS:
            found["Object kinds"].add(value["kind"])
            found["Model state"].update(set(value) & state.FIELDS)
        if set(value) & set(kinds.LAYERS) and "kind" not in value:
            found["Layer kinds"].add(kind_of(value).key)
        if "act" in value:
            found["Activations"].add(value["act"])
        if "init" in value:
            found["INIT schemes"].add(value["init"])
        for inner in value.values():
            _uses(inner, found)
    elif isinstance(value, list):
        for inner in value:
            _uses(inner, found)
    return found


@pytest.mark.parametrize("section, kind, objects", EXAMPLES, ids=[f"{s}:{k}" for s, k, _ in EXAMPLES])
def test_every_documented_example_builds_checksums_and_describes(section, kind, objects):
    assert kind in _uses(objects, {s: set() for s in FAMILIES})[section]  # it shows the kind it documents
    case = _parse(objects)
    first, second = build_objects(case.objects), build_objects(case.objects)
    assert checksum(first) == checksum(second)
    for spec in case.objects.values():
        text = describe_object(spec)
        assert text and "\n" not in text


@pytest.mark.parametrize("section, kind, objects", [e for e in EXAMPLES if e[0] == "Object kinds"],
                         ids=[k for s, k, _ in EXAMPLES if s == "Object kinds"])
def test_object_examples_build_what_they_say(section, kind, objects):
    built = build_objects(_parse(objects).objects)
    want = {"tensor": torch.Tensor, "labels": torch.Tensor, "mlp": nn.Sequential, "net": nn.Sequential,
            "branched": nn.Module, "optimizer": dict, "training": dict}[kind]
    assert all(isinstance(obj, want) for obj in built.values())


def test_models_declare_the_parameter_names_they_build():
    for _, _, objects in EXAMPLES:
        for spec in objects.values():
            kind = kinds.OBJECTS[spec["kind"]]
            if isinstance(kind, _Model):
                built = kind.build(spec)
                assert {n: list(p.shape) for n, p in built.named_parameters()} == kind.parameters(spec)


# --- each kind: the checksum follows its state -----------------------------------------------------------------

MLP = {"kind": "mlp", "seed": 1, "layers": [{"linear": [3, 4]}, {"act": "relu"}, {"linear": [4, 2]}]}
SGD = {"name": "sgd", "lr": 0.1, "momentum": 0.0, "nesterov": False, "weight_decay": 0.0}


def _inject(param: str, index: int, value: str, **more: Any) -> dict[str, Any]:
    return {"init": "normal", "inject": [{"param": param, "index": index, "value": value}], **more}


def _with(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**copy.deepcopy(base), **changes}


CHANGES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("tensor seed", {"kind": "tensor", "seed": 1, "shape": [2, 3], "init": "normal"},
     {"kind": "tensor", "seed": 2, "shape": [2, 3], "init": "normal"}),
    ("tensor dtype", {"kind": "tensor", "seed": 1, "shape": [2], "init": "values", "values": [1, 2]},
     {"kind": "tensor", "seed": 1, "shape": [2], "init": "values", "values": [1, 2], "dtype": "int64"}),
    ("labels value", {"kind": "labels", "values": [0, 1]}, {"kind": "labels", "values": [0, 2]}),
    ("labels seed", {"kind": "labels", "seed": 1, "n": 50, "num_classes": 3},
     {"kind": "labels", "seed": 2, "n": 50, "num_classes": 3}),
    ("mlp seed", MLP, _with(MLP, seed=2)),
    ("mode", MLP, _with(MLP, mode="eval")),
    ("frozen", MLP, _with(MLP, frozen=["0.bias"])),
    ("stale_grad", MLP, _with(MLP, stale_grad={"init": "normal"})),
    ("stale_grad none", _with(MLP, stale_grad={"init": "normal"}),
     _with(MLP, stale_grad={"init": "normal", "none": ["2.bias"]})),
    ("stale_grad inject", _with(MLP, stale_grad=_inject("0.weight", 1, "inf")),
     _with(MLP, stale_grad=_inject("0.weight", 1, "nan"))),
    ("batchnorm1d running stats", _with(MLP, layers=[{"linear": [3, 4]}, {"batchnorm1d": 4}]),
     _with(MLP, layers=[{"linear": [3, 4]}, {"batchnorm1d": 4, "running_mean": {"init": "constant", "value": 2.0}}])),
    ("layernorm weight", _with(MLP, layers=[{"layernorm": 3}]),
     _with(MLP, layers=[{"layernorm": 3, "weight": {"init": "constant", "value": 2.0}}])),
    ("conv2d value", _with(MLP, layers=[{"conv2d": [1, 2, 3]}]),
     _with(MLP, layers=[{"conv2d": [1, 2, 3], "bias": {"init": "zeros"}}])),
    ("prelu slope", _with(MLP, layers=[{"act": "prelu"}]), _with(MLP, layers=[{"act": "prelu", "slope": 0.5}])),
    ("batchnorm1d without affine", _with(MLP, layers=[{"batchnorm1d": 3}]),
     _with(MLP, layers=[{"batchnorm1d": 3, "affine": False}])),
    ("layernorm without affine", _with(MLP, layers=[{"layernorm": 3}]),
     _with(MLP, layers=[{"layernorm": 3, "affine": False}])),
    ("linear without bias", _with(MLP, layers=[{"linear": [3, 4], "bias": {"init": "zeros"}}]),
     _with(MLP, layers=[{"linear": [3, 4], "bias": False}])),
    ("conv2d without bias", _with(MLP, layers=[{"conv2d": [1, 2, 3], "bias": {"init": "zeros"}}]),
     _with(MLP, layers=[{"conv2d": [1, 2, 3], "bias": False}])),
    ("net residual", {"kind": "net", "seed": 1, "blocks": [{"name": "a", "layers": [{"linear": [2, 2]}]}]},
     {"kind": "net", "seed": 1, "blocks": [{"name": "a", "layers": [{"linear": [2, 2]}], "residual": True}]}),
    ("branched wiring", {"kind": "branched", "seed": 1, "trunk": [{"linear": [2, 2]}],
                         "heads": [{"name": "a", "layers": [{"linear": [2, 1]}]}]},
     {"kind": "branched", "seed": 1, "trunk": [{"linear": [2, 2]}],
      "heads": [{"name": "a", "layers": [{"linear": [2, 1]}], "input": "detach"}]}),
    ("custom bug", _with(MLP, layers=[{"custom": "tanh"}]),
     _with(MLP, layers=[{"custom": "tanh", "bug": "derivative_from_input"}])),
    ("optimizer value", {"kind": "optimizer", **SGD}, {"kind": "optimizer", **SGD, "lr": 0.2}),
]


@pytest.mark.parametrize("label, before, after", CHANGES, ids=[c[0] for c in CHANGES])
def test_a_change_of_state_changes_the_checksum(label, before, after):
    first = _digest({"obj": before})
    assert first == _digest({"obj": before})
    assert first != _digest({"obj": after})


# --- each kind: malformed JSON names the file and the field ----------------------------------------------------

BAD: list[tuple[dict[str, Any], str]] = [
    ({"kind": "matrix", "seed": 1}, "objects.obj.kind"),
    ({"kind": "tensor", "seed": 1, "shape": [2], "init": "normal", "sdt": 1.0}, "objects.obj.sdt"),
    ({"kind": "tensor", "seed": 1, "shape": [2, 2], "init": "values", "values": [1.0, 2.0, 3.0]}, "objects.obj.values"),
    ({"kind": "tensor", "seed": 1, "shape": [2], "init": "normal", "dtype": "int64"}, "objects.obj.init"),
    ({"kind": "tensor", "seed": 1, "shape": [1], "init": "constant", "value": 0.5, "dtype": "int64"},
     "objects.obj.value"),
    ({"kind": "labels", "values": [0, 5], "num_classes": 5}, "objects.obj.values[1]"),
    ({"kind": "labels", "seed": 1, "n": 4}, "objects.obj.num_classes"),
    (_with(MLP, seed="1"), "objects.obj.seed"),
    (_with(MLP, layers=[{"linear": [3, "4"]}]), "objects.obj.layers[0].linear"),
    (_with(MLP, layers=[{"linear": [3, 4], "weight": {"init": "he"}}]), "objects.obj.layers[0].weight.init"),
    (_with(MLP, layers=[{"act": "swish"}]), "objects.obj.layers[0].act"),
    (_with(MLP, layers=[{"act": "relu", "negative_slope": 0.1}]), "objects.obj.layers[0].negative_slope"),
    (_with(MLP, layers=[{"act": "hardtanh", "min_val": 1.0}]), "objects.obj.layers[0].max_val"),
    (_with(MLP, layers=[{"act": "hardtanh", "min_val": -2.0, "max_val": -2.0}]), "objects.obj.layers[0].max_val"),
    (_with(MLP, layers=[{"act": "relu6", "max_val": 5.0}]), "objects.obj.layers[0].max_val"),
    (_with(MLP, layers=[{"act": "prelu", "num_parameters": 0}]), "objects.obj.layers[0].num_parameters"),
    (_with(MLP, layers=[{"act": "prelu", "num_parameters": 2.0}]), "objects.obj.layers[0].num_parameters"),
    (_with(MLP, layers=[{"act": "prelu", "slope": "0.1"}]), "objects.obj.layers[0].slope"),
    (_with(MLP, layers=[{"act": "prelu"}], frozen=["0.bias"]), "objects.obj.frozen[0]"),
    (_with(MLP, layers=[{"linear": [2, 2], "act": "relu"}]), "objects.obj.layers[0]"),
    (_with(MLP, layers=[{"batchnorm1d": 4, "running_var": {"init": "normal"}}]), "objects.obj.layers[0].running_var"),
    (_with(MLP, layers=[{"batchnorm1d": 0}]), "objects.obj.layers[0].batchnorm1d"),
    (_with(MLP, layers=[{"layernorm": [0]}]), "objects.obj.layers[0].layernorm"),
    (_with(MLP, layers=[{"layernorm": 3, "affine": 0}]), "objects.obj.layers[0].affine"),
    (_with(MLP, layers=[{"layernorm": 3, "affine": False, "bias": {"init": "zeros"}}]), "objects.obj.layers[0].bias"),
    (_with(MLP, layers=[{"batchnorm1d": 3, "affine": False, "weight": {"init": "zeros"}}]),
     "objects.obj.layers[0].weight"),
    (_with(MLP, layers=[{"batchnorm1d": 3, "affine": False}], frozen=["0.weight"]), "objects.obj.frozen[0]"),
    (_with(MLP, layers=[{"dropout": 1.5}]), "objects.obj.layers[0].dropout"),
    (_with(MLP, layers=[{"conv2d": [1, 2]}]), "objects.obj.layers[0].conv2d"),
    (_with(MLP, layers=[{"conv2d": [1, 2, [3]]}]), "objects.obj.layers[0].conv2d[2]"),
    (_with(MLP, layers=[{"conv2d": [1, 2, [3, 0]]}]), "objects.obj.layers[0].conv2d[2]"),
    (_with(MLP, layers=[{"conv2d": [1, 2, 3], "stride": [1, 2, 1]}]), "objects.obj.layers[0].stride"),
    (_with(MLP, layers=[{"conv2d": [1, 2, 3], "padding": [-1, 0]}]), "objects.obj.layers[0].padding"),
    (_with(MLP, layers=[{"conv2d": [1, 2, 3], "weight": {"init": "values", "values": [1.0]}}]),
     "objects.obj.layers[0].weight.values"),
    (_with(MLP, layers=[{"linear": [3, 4], "bias": True}]), "objects.obj.layers[0].bias"),
    (_with(MLP, layers=[{"linear": [3, 4], "bias": None}]), "objects.obj.layers[0].bias"),
    (_with(MLP, layers=[{"conv2d": [1, 2, 3], "bias": "none"}]), "objects.obj.layers[0].bias"),
    (_with(MLP, layers=[{"linear": [3, 4], "bias": False}], frozen=["0.bias"]), "objects.obj.frozen[0]"),
    (_with(MLP, layers=[{"custom": "linear", "linear": [2, 2], "bias": False}]), "objects.obj.layers[0].bias"),
    (_with(MLP, layers=[{"maxpool2d": 2, "stride": 0}]), "objects.obj.layers[0].stride"),
    (_with(MLP, layers=[{"flatten": 1}]), "objects.obj.layers[0].flatten"),
    (_with(MLP, layers=[{"custom": "relu"}]), "objects.obj.layers[0].custom"),
    (_with(MLP, layers=[{"custom": "tanh", "bug": "weight_grad_half"}]), "objects.obj.layers[0].bug"),
    (_with(MLP, layers=[{"custom": "linear", "linear": [2, 3], "bug": "input_grad_transposed"}]),
     "objects.obj.layers[0].linear"),
    (_with(MLP, mode="test"), "objects.obj.mode"),
    (_with(MLP, frozen=["1.weight"]), "objects.obj.frozen[0]"),
    (_with(MLP, stale_grad={"init": "normal", "none": ["0.weights"]}), "objects.obj.stale_grad.none[0]"),
    (_with(MLP, stale_grad=_inject("0.bias", 4, "inf")), "objects.obj.stale_grad.inject[0].index"),
    (_with(MLP, stale_grad=_inject("0.bias", 0, "Infinity")), "objects.obj.stale_grad.inject[0].value"),
    (_with(MLP, stale_grad=_inject("9.weight", 0, "inf")), "objects.obj.stale_grad.inject[0].param"),
    (_with(MLP, stale_grad={"init": "values", "values": [1.0]}), "objects.obj.stale_grad.init"),
    (_with(MLP, frozen=["0.bias"], stale_grad=_inject("0.bias", 0, "inf")), "objects.obj.stale_grad.inject[0].param"),
    (_with(MLP, stale_grad=_inject("0.bias", 0, "inf", none=["0.bias"])), "objects.obj.stale_grad.inject[0].param"),
    ({"kind": "net", "seed": 1, "blocks": [{"name": "a", "layers": []}, {"name": "a", "layers": []}]},
     "objects.obj.blocks[1].name"),
    ({"kind": "net", "seed": 1, "blocks": [{"name": "a.b", "layers": []}]}, "objects.obj.blocks[0].name"),
    ({"kind": "net", "seed": 1, "blocks": [{"name": "train", "layers": []}]}, "objects.obj.blocks[0].name"),
    ({"kind": "branched", "seed": 1, "trunk": [], "heads": [{"name": "half", "layers": []}]}, "objects.obj.heads[0].name"),
    ({"kind": "branched", "seed": 1, "trunk": [], "heads": [{"name": "training", "layers": []}]},
     "objects.obj.heads[0].name"),
    ({"kind": "net", "seed": 1, "blocks": [{"name": "_modules", "layers": []}]}, "objects.obj.blocks[0].name"),
    ({"kind": "branched", "seed": 1, "trunk": [], "heads": [{"name": "a", "layers": [], "used": False}]},
     "objects.obj.heads"),
    ({"kind": "branched", "seed": 1, "trunk": [], "heads": [{"name": "a", "layers": [], "input": "detached"}]},
     "objects.obj.heads[0].input"),
    ({"kind": "optimizer", "name": "adam", "lr": 0.1, "betas": [0.9, 0.999], "weight_decay": 0.0}, "objects.obj.eps"),
    ({"kind": "optimizer", "name": "rmsprop", "lr": 0.1}, "objects.obj.name"),
    ({"kind": "optimizer", **SGD, "betas": [0.9, 0.9]}, "objects.obj.betas"),
    ({"kind": "optimizer", **SGD, "nesterov": True}, "objects.obj.momentum"),
    ({"kind": "training", "steps": 31, "clip_max_norm": 0.0, "warmup_steps": 1, "optimizer": SGD}, "objects.obj.steps"),
    ({"kind": "training", "steps": 3, "clip_max_norm": 0.0, "warmup_steps": 1,
      "optimizer": {"kind": "optimizer", **SGD}}, "objects.obj.optimizer.kind"),
]


@pytest.mark.parametrize("spec, field", BAD, ids=[f for _, f in BAD])
def test_malformed_specs_name_the_file_and_the_field(spec, field):
    _invalid({"obj": spec}, field)


def test_the_refused_block_names_are_every_public_attribute_of_the_installed_nn_module():
    """The list lets the judge's process validate names without torch; it must not fall behind torch itself."""
    from judge.package.kinds.models import MODULE_ATTRIBUTES

    public = {name for name in dir(nn.Module()) if not name.startswith("_")}
    assert public <= MODULE_ATTRIBUTES


def test_validating_and_describing_every_bundled_case_never_imports_torch(tmp_path):
    """Only building imports torch (``judge.package.kinds.lazy``): the judge's process pays for it never."""
    script = ("import sys\nfrom judge.package.problem import available, find_problem\n"
              "from judge.package.kinds import describe_object\n"
              "for slug in available():\n"
              "    for case in find_problem(slug).cases:\n"
              "        [describe_object(spec) for spec in case.objects.values()]\n"
              "print('torch' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.stdout.strip() == "False", done.stderr


def test_permute_names_defined_objects():
    x = {"kind": "tensor", "seed": 1, "shape": [4, 2], "init": "normal"}
    assert _parse({"x": x}).permute is None
    assert _parse({"x": x}, permute=[]).permute == []
    assert _parse({"x": x}, permute=["x"]).permute == ["x"]
    _invalid({"x": x}, "permute[1]", permute=["x", "y"])
    _invalid({"x": x}, "permute", permute="x")


# --- what the kinds build --------------------------------------------------------------------------------------

def _build(spec: dict[str, Any]) -> Any:
    return build_objects(_parse({"obj": spec}).objects)["obj"]


def test_stale_grad_injects_and_leaves_grads_none_without_moving_the_others():
    base = _with(MLP, stale_grad={"init": "normal", "std": 1000.0})
    plain = dict(_build(base).named_parameters())
    model = _build(_with(base, stale_grad={**base["stale_grad"], "none": ["2.bias"], "inject": [
        {"param": "0.weight", "index": 4, "value": "-inf"}, {"param": "2.weight", "index": 0, "value": "nan"}]}))
    grads = {n: p.grad for n, p in model.named_parameters()}
    assert grads["2.bias"] is None
    assert grads["0.weight"].view(-1)[4].item() == -math.inf and math.isnan(grads["2.weight"].view(-1)[0].item())
    assert torch.equal(grads["0.bias"], plain["0.bias"].grad)
    assert torch.equal(grads["0.weight"].view(-1)[:4], plain["0.weight"].grad.view(-1)[:4])


def test_frozen_parameters_and_mode():
    model = _build(_with(MLP, frozen=["0.bias"], mode="eval", stale_grad={"init": "zeros"}))
    params = dict(model.named_parameters())
    assert not params["0.bias"].requires_grad and params["0.bias"].grad is None
    assert params["0.weight"].requires_grad and params["0.weight"].grad is not None
    assert not any(m.training for m in model.modules())


def test_batchnorm_buffers_and_defaults():
    bn = _build(_with(MLP, layers=[{"batchnorm1d": 3, "running_mean": {"init": "values", "values": [1, 2, 3]},
                                    "running_var": {"init": "uniform", "low": 0.5, "high": 2.0}, "momentum": 0.2}]))[0]
    assert bn.running_mean.tolist() == [1.0, 2.0, 3.0] and bool((bn.running_var > 0.5).all())
    assert bn.momentum == 0.2 and bn.weight.tolist() == [1.0] * 3 and bn.bias.tolist() == [0.0] * 3
    assert bn.running_mean.dtype == torch.float32


def test_norm_layers_build_without_affine_parameters_and_draw_their_buffers_as_with_them():
    running = {"running_mean": {"init": "normal"}, "running_var": {"init": "uniform", "low": 0.5, "high": 2.0}}
    bn, ln = _build(_with(MLP, layers=[{"batchnorm1d": 3, "affine": False, **running},
                                       {"layernorm": 3, "affine": False}]))
    assert bn.weight is None and bn.bias is None and not bn.affine and ln.weight is None and not ln.elementwise_affine
    with_affine = _build(_with(MLP, layers=[{"batchnorm1d": 3, **running}]))[0]
    assert torch.equal(bn.running_mean, with_affine.running_mean)  # the default affine parameters draw nothing
    assert torch.equal(bn.running_var, with_affine.running_var)


def test_conv_default_init_uses_the_kernel_in_its_fans():
    conv = _build(_with(MLP, layers=[{"conv2d": [4, 8, 3]}]))[0]
    bound = 1 / math.sqrt(4 * 3 * 3)
    assert conv.weight.abs().max().item() <= bound and conv.weight.abs().max().item() > 0.8 * bound
    kaiming = _build(_with(MLP, seed=3, layers=[{"conv2d": [16, 16, 3], "weight": {"init": "kaiming_normal"}}]))[0]
    assert kaiming.weight.std().item() == pytest.approx(math.sqrt(2 / (16 * 9)), rel=0.05)


def test_conv_builds_rectangular_kernels_strides_and_paddings_as_nn_conv2d_takes_them():
    """Every kernel the statements allow (``C_in · k_h · k_w``): a rectangular one tells k_h · k_w from k_h · k_h."""
    conv = _build(_with(MLP, layers=[{"conv2d": [2, 3, [1, 5]], "stride": [1, 2], "padding": [0, 2]}]))[0]
    assert conv.weight.shape == (3, 2, 1, 5) and conv.stride == (1, 2) and conv.padding == (0, 2)
    assert conv.weight.abs().max().item() <= 1 / math.sqrt(2 * 1 * 5)
    assert conv(torch.zeros(1, 2, 4, 6)).shape == (1, 3, 4, 3)
    square = _build(_with(MLP, layers=[{"conv2d": [2, 3, 3]}]))[0]
    assert square.kernel_size == (3, 3) and square.stride == (1, 1) and square.padding == (0, 0)


def test_linear_and_conv_layers_build_without_a_bias_and_draw_the_weight_as_with_one():
    """``"bias": false`` is ``bias=False``: no bias parameter (``.bias`` is None), the weight drawn first as
    always, and the next layer's draws start where the missing bias would have drawn nothing."""
    plain = _build(_with(MLP, layers=[{"linear": [3, 4]}, {"conv2d": [1, 2, 3]}]))
    bare = _build(_with(MLP, layers=[{"linear": [3, 4], "bias": False}, {"conv2d": [1, 2, 3], "bias": False}]))
    assert bare[0].bias is None and bare[1].bias is None
    assert [n for n, _ in bare.named_parameters()] == ["0.weight", "1.weight"]
    assert torch.equal(bare[0].weight, plain[0].weight)
    assert not torch.equal(bare[1].weight, plain[1].weight)  # drawn after 4 bias values fewer
    x = torch.randn(2, 3)
    assert torch.equal(bare[0](x), x @ bare[0].weight.t())


def test_labels_are_int64_in_range():
    labels = _build({"kind": "labels", "seed": 3, "n": 40, "num_classes": 4})
    assert labels.dtype == torch.int64 and labels.shape == (40,) and set(labels.tolist()) == {0, 1, 2, 3}


def test_residual_and_branched_forward():
    net = _build({"kind": "net", "seed": 1, "blocks": [
        {"name": "res", "residual": True, "layers": [{"linear": [3, 3]}]}]})
    x = torch.randn(5, 3)
    assert torch.allclose(net(x), x + net.res.body(x))
    model = _build({"kind": "branched", "seed": 2, "trunk": [{"linear": [3, 4]}], "heads": [
        {"name": "main", "layers": [{"linear": [4, 2]}]},
        {"name": "aux", "layers": [{"linear": [4, 2]}], "input": "detach"},
        {"name": "probe", "layers": [{"linear": [4, 2]}], "output": "detach"},
        {"name": "gate", "layers": [{"linear": [4, 2]}], "scale": 0.0},
        {"name": "spare", "layers": [{"linear": [4, 2]}], "used": False}]})
    h = model.trunk(x)
    want = model.heads.main(h) + model.heads.aux(h) + model.heads.probe(h)
    assert torch.allclose(model(x), want)
    model(x).pow(2).sum().backward()
    grads = {n: p.grad for n, p in model.named_parameters()}
    assert grads["heads.probe.0.weight"] is None and grads["heads.spare.0.weight"] is None
    assert grads["heads.gate.0.weight"] is not None and not grads["heads.gate.0.weight"].any()
    assert grads["heads.aux.0.weight"].abs().sum() > 0 and grads["trunk.0.weight"].abs().sum() > 0


def test_configs_build_plain_dicts_afresh():
    spec = {"kind": "training", "steps": 3, "clip_max_norm": 0.0, "warmup_steps": 1,
            "optimizer": {"name": "adam", "lr": 0.01, "betas": [0.9, 0.999], "eps": 1e-8, "weight_decay": 0.0}}
    built = _build(spec)
    assert built == {k: v for k, v in spec.items() if k != "kind"}
    built["optimizer"]["betas"].append(0.5)
    assert _build(spec)["optimizer"]["betas"] == [0.9, 0.999]


def test_dropout_calls_are_reproducible_under_seeded():
    model = _build(_with(MLP, layers=[{"dropout": 0.5}]))
    x = torch.ones(8, 16)
    torch.manual_seed(1)
    before = torch.get_rng_state()
    with seeded():
        first = model(x)
    assert torch.equal(torch.get_rng_state(), before)  # the caller's generator is restored
    with seeded():
        assert torch.equal(model(x), first)
    assert (first == 0).any() and (first == 2).any()


def test_look_alike_activations_are_not_instances_of_the_modules_they_resemble():
    """What a statement's "after every nn.ReLU" (or nn.Tanh, nn.Sigmoid) rules out, these are: a model may hold them,
    and only a solution that matches class names measures them."""
    model = _build(_with(MLP, layers=[{"act": "relu6"}, {"act": "hardtanh", "min_val": -2.0, "max_val": 0.5},
                                      {"act": "hardsigmoid"}]))
    for module, resembled in zip(model, (nn.ReLU, nn.Tanh, nn.Sigmoid)):
        assert not isinstance(module, resembled) and resembled.__name__.lower() in type(module).__name__.lower()
    assert (model[1].min_val, model[1].max_val) == (-2.0, 0.5)
    x = torch.tensor([-10.0, -1.0, 0.5, 10.0])
    assert model[0](x).tolist() == [0.0, 0.0, 0.5, 6.0] and model[2](x)[[0, 3]].tolist() == [0.0, 1.0]


def test_prelu_is_an_activation_with_a_parameter_that_state_can_name():
    """Its slopes are a parameter like any other: every parameter of the model holds them, stale_grad fills their
    .grad and frozen names them, so "every parameter" of a statement differs from "every nn.Linear's"."""
    spec = _with(MLP, layers=[{"linear": [3, 4]}, {"act": "prelu", "num_parameters": 4, "slope": 0.1}],
                 stale_grad={"init": "constant", "value": 2.0}, frozen=["0.bias"])
    model = _build(spec)
    assert isinstance(model[1], nn.PReLU) and not isinstance(model[1], (nn.ReLU, nn.LeakyReLU))
    assert kinds.OBJECTS["mlp"].parameters(spec) == {"0.weight": [4, 3], "0.bias": [4], "1.weight": [4]}
    slopes = model.get_parameter("1.weight")
    assert slopes.tolist() == [torch.tensor(0.1).item()] * 4 and slopes.requires_grad
    assert slopes.grad.tolist() == [2.0] * 4
    assert model[1](torch.tensor([[-10.0, 0.0, 1.0, -1.0]])).tolist() == [[-1.0, 0.0, 1.0, torch.tensor(-0.1).item()]]
    assert kinds.hazards(model[1]).kinks == (0.0,) and kinds.hazards(nn.PReLU(init=1.0)) is None


# --- hazards ---------------------------------------------------------------------------------------------------

def test_hazards_of_activations_and_custom_layers():
    assert kinds.hazards(nn.ReLU()) == kinds.Hazard(kinks=(0.0,))
    assert kinds.hazards(nn.LeakyReLU(0.2)).kinks == (0.0,)
    assert kinds.hazards(nn.Sigmoid()).floor == -80.0
    assert kinds.hazards(nn.ELU(1.0)) is None and kinds.hazards(nn.ELU(0.5)).kinks == (0.0,)
    assert kinds.hazards(nn.Tanh()) is None and kinds.hazards(nn.Linear(2, 2)) is None
    assert kinds.hazards(nn.ReLU6()).kinks == (0.0, 6.0) and kinds.hazards(nn.Hardsigmoid()).kinks == (-3.0, 3.0)
    assert kinds.hazards(nn.Hardtanh(-2.0, 0.5)).kinks == (-2.0, 0.5)
    layers = _build(_with(MLP, layers=[
        {"custom": "sigmoid"}, {"custom": "tanh"}, {"custom": "linear", "linear": [2, 2]}]))
    assert [kinds.hazards(m) for m in layers] == [kinds.Hazard(floor=-80.0), None, None]


@pytest.mark.parametrize("name", sorted(kinds.ACTIVATIONS))
def test_floors_are_where_float32_underflows(name):
    """Above its floor an activation's float32 output is non-zero wherever float64's is; an activation with no
    floor never underflows on [-120, 0]."""
    act = kinds.ACTIVATIONS[name].build({})
    f64 = copy.deepcopy(act).double()  # an activation with a parameter (PReLU) computes in its dtype
    floor = (kinds.hazards(act) or kinds.Hazard()).floor
    x = torch.linspace(-120.0 if floor is None else floor, 0.0, 20001, dtype=torch.float64)
    lost = (act(x.float()) == 0) & (f64(x) != 0)
    assert not lost.any(), x[lost].max().item()
    if floor is not None:  # and the floor is not needlessly far from the underflow
        x = torch.linspace(floor - 30.0, floor, 20001, dtype=torch.float64)
        assert ((act(x.float()) == 0) & (f64(x) != 0)).any()


# --- custom autograd layers ------------------------------------------------------------------------------------

def _linear_inputs() -> tuple[torch.Tensor, ...]:
    gen = torch.Generator().manual_seed(0)
    return tuple(torch.randn(shape, generator=gen, dtype=torch.float64, requires_grad=True)
                 for shape in ((5, 3), (3, 3), (3,)))


FUNCTIONS = {"linear": LinearFunction, "tanh": TanhFunction, "sigmoid": SigmoidFunction}


def _rule(layer: str, bug: str) -> Callable[..., object]:
    return CUSTOM[layer][1][kinds.BUGS[layer].index(bug)]


def _run(layer: str, bug: str) -> Callable[..., torch.Tensor]:
    return lambda *inputs: FUNCTIONS[layer].apply(*inputs, _rule(layer, bug))


def test_every_bug_has_one_rule():
    assert set(CUSTOM) == set(kinds.BUGS) == set(FUNCTIONS)
    assert all(len(CUSTOM[layer][1]) == len(bugs) for layer, bugs in kinds.BUGS.items())


@pytest.mark.parametrize("layer, bug", [(layer, b) for layer, bugs in kinds.BUGS.items() for b in bugs])
def test_gradcheck_passes_exactly_without_a_bug(layer, bug):
    inputs = _linear_inputs() if layer == "linear" else (_linear_inputs()[0],)
    passed = torch.autograd.gradcheck(_run(layer, bug), inputs, raise_exception=False)
    assert passed == (bug == "none")


def test_custom_layers_forward_like_pytorch_and_work_with_torch_func():
    x, w, b = _linear_inputs()
    assert torch.allclose(_run("linear", "weight_grad_half")(x, w, b), torch.nn.functional.linear(x, w, b))
    assert torch.equal(_run("tanh", "derivative_from_input")(x), torch.tanh(x))
    grad = torch.func.grad(lambda t: _run("tanh", "none")(t).sum())(x.detach())
    assert torch.allclose(grad, 1 - torch.tanh(x.detach()) ** 2)


def test_the_worker_runs_every_call_under_the_fixed_seed(tmp_path):
    """Through the worker's own protocol (in a forked child, unconfined): a dropout model gives the same output on every
    call, and the output the author tools compute under :func:`seeded`."""
    import io

    from judge.worker.main import Lockdown, serve
    from judge.worker.protocol import encode_request

    solution = tmp_path / "solution.py"
    solution.write_text("class Solution:\n    def f(self, model, x):\n        return model(x).tolist()\n")
    spec = {"objects": {"model": _with(MLP, layers=[{"dropout": 0.5}]),
                        "x": {"kind": "tensor", "seed": 1, "shape": [4, 6], "init": "normal"}},
            "calls": [{"method": "f", "args": ["$model", "$x"]}]}
    lines = [{"type": "setup", "device": "cpu", "methods": ["f"]}] + [
        {"type": "call", "id": i, "method": "f", "args": ["$model", "$x"], "objects": spec["objects"]} for i in range(2)]
    requests, out = io.BytesIO(b"".join(encode_request(m) for m in lines)), io.BytesIO()
    replies_file = tmp_path / "replies"
    child = os.fork()  # serve() drops every capability of its process: never pytest's own
    if child == 0:
        try:
            serve(requests, out, str(solution), Lockdown())  # no seccomp, no Landlock
            replies_file.write_bytes(out.getvalue())
        finally:
            os._exit(0)
    assert os.waitpid(child, 0)[1] == 0
    replies = [json.loads(line) for line in replies_file.read_bytes().splitlines()]
    values = [r["value"] for r in replies if r.get("type") == "result"]
    objects = build_objects(spec["objects"])
    with seeded():
        want = objects["model"](objects["x"]).tolist()
    assert values == [want, want]
    assert any(v == 0.0 for row in want for v in row)  # dropout really dropped something
