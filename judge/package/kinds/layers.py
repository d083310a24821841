"""Layer kinds: the entries of a model's ``layers`` list. The key that names the kind holds its size.

A layer's parameters (and buffers) are drawn in order from the model's generator, in float64, then cast to
float32; parameters a spec leaves out get PyTorch's own initialisation for that layer (``{"init": "default"}``).
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from judge.package.kinds.activations import ACTIVATIONS
from judge.package.kinds.base import LAYERS, Checker, LayerKind
from judge.package.kinds.custom import BUGS, CustomLinear, CustomSigmoid, CustomTanh
from judge.package.kinds.inits import describe_init, draw, flat_values, validate_init

DEFAULT = {"init": "default"}
ONES = {"init": "constant", "value": 1.0}
ZEROS = {"init": "zeros"}


def _init(spec: dict[str, Any], part: str, default: dict[str, Any] = DEFAULT) -> dict[str, Any]:
    """The INIT for ``part``; ``default`` stands in for a missing one and for ``{"init": "default"}``."""
    init = spec.get(part, DEFAULT)
    return default if init["init"] == "default" else init


def _tensor(spec: dict[str, Any], part: str, shape: list[int], gen: torch.Generator, fans: tuple[int, int],
            default: dict[str, Any] = DEFAULT) -> torch.Tensor:
    return draw(_init(spec, part, default), shape, gen, *fans).float()


def _inits(spec: dict[str, Any], where: str, check: Checker, parts: dict[str, list[int]]) -> None:
    for part, shape in parts.items():
        if part in spec:
            validate_init(spec[part], f"{where}.{part}", check, shape)


def _describe_parts(spec: dict[str, Any], parts: tuple[str, ...],
                    defaults: dict[str, dict[str, Any]] | None = None) -> str:
    """``weight kaiming_normal, bias zeros``; a part whose default is not PyTorch's fan-based one is described as
    what it draws (BatchNorm's weight: ``constant(value=1.0)``)."""
    return ", ".join(f"{part} {describe_init(_init(spec, part, (defaults or {}).get(part, DEFAULT)))}" for part in parts)


def _validate_linear(spec: dict[str, Any], where: str, check: Checker) -> None:
    check.dims(spec.get("linear"), f"{where}.linear", count=2)
    fan_in, fan_out = spec["linear"]
    _inits(spec, where, check, {"weight": [fan_out, fan_in], "bias": [fan_out]})


def _linear_parameters(spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
    fan_in, fan_out = spec["linear"]
    return [("weight", [fan_out, fan_in]), ("bias", [fan_out])]


def _linear_tensors(spec: dict[str, Any], gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    fans = tuple(spec["linear"])
    weight = _tensor(spec, "weight", [fans[1], fans[0]], gen, fans)
    return weight, _tensor(spec, "bias", [fans[1]], gen, fans)


@LAYERS.register
class Linear(LayerKind):
    key = "linear"
    fields = {"weight", "bias"}
    summary = "nn.Linear(in, out)"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        _validate_linear(spec, where, check)

    def parameters(self, spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
        return _linear_parameters(spec)

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        layer = nn.utils.skip_init(nn.Linear, *spec["linear"])
        layer.weight, layer.bias = (nn.Parameter(t) for t in _linear_tensors(spec, gen))
        return layer

    def describe(self, spec: dict[str, Any]) -> str:
        fan_in, fan_out = spec["linear"]
        return f"Linear({fan_in}, {fan_out}; {_describe_parts(spec, ('weight', 'bias'))})"


@LAYERS.register
class Act(LayerKind):
    key = "act"
    fields = {p for a in ACTIVATIONS.values() for p in a.params}
    summary = "an activation module"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        act = ACTIVATIONS[check.choice(spec.get("act"), ACTIVATIONS, f"{where}.act")]
        check.fields(spec, {"act", *act.params}, where)
        for key in act.params:
            if key in spec:
                check.number(spec[key], f"{where}.{key}")

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        return ACTIVATIONS[spec["act"]].build(spec)

    def describe(self, spec: dict[str, Any]) -> str:
        return ACTIVATIONS[spec["act"]].describe(spec)


class _Norm(LayerKind):
    """Affine weight (default 1) and bias (default 0) over a feature shape."""

    DEFAULTS = {"weight": ONES, "bias": ZEROS, "running_mean": ZEROS, "running_var": ONES}
    """PyTorch's own initial values, which ``{"init": "default"}`` stands for here"""

    def shape(self, spec: dict[str, Any]) -> list[int]:
        raise NotImplementedError

    def parameters(self, spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
        return [("weight", self.shape(spec)), ("bias", self.shape(spec))]

    def affine(self, layer: nn.Module, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        shape = self.shape(spec)
        fans = (shape[-1], shape[-1])
        for part in ("weight", "bias"):
            setattr(layer, part, nn.Parameter(_tensor(spec, part, shape, gen, fans, self.DEFAULTS[part])))
        return layer


@LAYERS.register
class BatchNorm1d(_Norm):
    key = "batchnorm1d"
    fields = {"weight", "bias", "running_mean", "running_var", "momentum", "eps"}
    summary = "nn.BatchNorm1d(features) with preset running statistics"

    def shape(self, spec: dict[str, Any]) -> list[int]:
        return [spec["batchnorm1d"]]

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        check.integer(spec.get("batchnorm1d"), f"{where}.batchnorm1d", low=1)
        shape = self.shape(spec)
        _inits(spec, where, check, {"weight": shape, "bias": shape, "running_mean": shape, "running_var": shape})
        check.number(spec.get("momentum", 0.1), f"{where}.momentum", 0.0, 1.0)
        check.number(spec.get("eps", 1e-5), f"{where}.eps", 0.0, strict_low=True)
        var = spec.get("running_var", DEFAULT)
        positive = var["init"] == "default" or var["init"] in ("constant", "values") and all(
            v > 0 for v in flat_values(var)) or var["init"] == "uniform" and var.get("low", -1.0) > 0
        if not positive:
            check.fail(f"{where}.running_var", "positive variances: a constant, values or uniform init above 0")

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        layer = self.affine(nn.BatchNorm1d(spec["batchnorm1d"], spec.get("eps", 1e-5), spec.get("momentum", 0.1)),
                            spec, gen)
        shape, fans = self.shape(spec), (spec["batchnorm1d"],) * 2
        for part in ("running_mean", "running_var"):
            getattr(layer, part).copy_(_tensor(spec, part, shape, gen, fans, self.DEFAULTS[part]))
        return layer

    def describe(self, spec: dict[str, Any]) -> str:
        parts = _describe_parts(spec, ("weight", "bias", "running_mean", "running_var"), self.DEFAULTS)
        return (f"BatchNorm1d({spec['batchnorm1d']}, eps={spec.get('eps', 1e-5)}, "
                f"momentum={spec.get('momentum', 0.1)}; {parts})")


@LAYERS.register
class LayerNorm(_Norm):
    key = "layernorm"
    fields = {"weight", "bias", "eps"}
    summary = "nn.LayerNorm(shape) over the last dimensions"

    def shape(self, spec: dict[str, Any]) -> list[int]:
        size = spec["layernorm"]
        return list(size) if isinstance(size, list) else [size]

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        size = spec.get("layernorm")
        if not (type(size) is int and size > 0):
            check.dims(size, f"{where}.layernorm")
        shape = self.shape(spec)
        _inits(spec, where, check, {"weight": shape, "bias": shape})
        check.number(spec.get("eps", 1e-5), f"{where}.eps", 0.0, strict_low=True)

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        return self.affine(nn.LayerNorm(self.shape(spec), spec.get("eps", 1e-5)), spec, gen)

    def describe(self, spec: dict[str, Any]) -> str:
        parts = _describe_parts(spec, ("weight", "bias"), self.DEFAULTS)
        return f"LayerNorm({spec['layernorm']}, eps={spec.get('eps', 1e-5)}; {parts})"


@LAYERS.register
class Dropout(LayerKind):
    key = "dropout"
    summary = "nn.Dropout(p): random in train mode, so every call runs under a fixed seed"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        check.number(spec.get("dropout"), f"{where}.dropout", 0.0, 1.0)

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        return nn.Dropout(spec["dropout"])

    def describe(self, spec: dict[str, Any]) -> str:
        return f"Dropout({spec['dropout']})"


@LAYERS.register
class Conv2d(LayerKind):
    key = "conv2d"
    fields = {"stride", "padding", "weight", "bias"}
    summary = "nn.Conv2d(c_in, c_out, k) on [N, C, H, W] inputs"

    @staticmethod
    def fans(spec: dict[str, Any]) -> tuple[int, int]:
        c_in, c_out, k = spec["conv2d"]
        return c_in * k * k, c_out * k * k

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        check.dims(spec.get("conv2d"), f"{where}.conv2d", count=3)
        check.integer(spec.get("stride", 1), f"{where}.stride", low=1)
        check.integer(spec.get("padding", 0), f"{where}.padding", low=0)
        _inits(spec, where, check, dict(self.parameters(spec)))

    def parameters(self, spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
        c_in, c_out, k = spec["conv2d"]
        return [("weight", [c_out, c_in, k, k]), ("bias", [c_out])]

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        layer = nn.utils.skip_init(nn.Conv2d, *spec["conv2d"], stride=spec.get("stride", 1),
                                   padding=spec.get("padding", 0))
        shapes = dict(self.parameters(spec))
        for part in ("weight", "bias"):
            setattr(layer, part, nn.Parameter(_tensor(spec, part, shapes[part], gen, self.fans(spec))))
        return layer

    def describe(self, spec: dict[str, Any]) -> str:
        c_in, c_out, k = spec["conv2d"]
        return (f"Conv2d({c_in}, {c_out}, {k}, stride={spec.get('stride', 1)}, padding={spec.get('padding', 0)}; "
                f"{_describe_parts(spec, ('weight', 'bias'))})")


@LAYERS.register
class MaxPool2d(LayerKind):
    key = "maxpool2d"
    fields = {"stride"}
    summary = "nn.MaxPool2d(k), stride k unless given"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        check.integer(spec.get("maxpool2d"), f"{where}.maxpool2d", low=1)
        check.integer(spec.get("stride", 1), f"{where}.stride", low=1)

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        return nn.MaxPool2d(spec["maxpool2d"], spec.get("stride"))

    def describe(self, spec: dict[str, Any]) -> str:
        return f"MaxPool2d({spec['maxpool2d']}, stride={spec.get('stride', spec['maxpool2d'])})"


@LAYERS.register
class Flatten(LayerKind):
    key = "flatten"
    summary = "nn.Flatten(): [N, C, H, W] to [N, C·H·W]"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        if spec.get("flatten") is not True:
            check.fail(f"{where}.flatten", "true")

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        return nn.Flatten()

    def describe(self, spec: dict[str, Any]) -> str:
        return "Flatten()"


@LAYERS.register
class Custom(LayerKind):
    key = "custom"
    fields = {"bug", "linear", "weight", "bias"}
    summary = "a judge autograd.Function layer (linear, tanh, sigmoid) with a correct or broken backward"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        kind = check.choice(spec.get("custom"), BUGS, f"{where}.custom")
        bug = check.choice(spec.get("bug", "none"), BUGS[kind], f"{where}.bug")
        if kind == "linear":
            _validate_linear(spec, where, check)
            if bug == "input_grad_transposed" and spec["linear"][0] != spec["linear"][1]:
                check.fail(f"{where}.linear", "a square layer (the bug transposes the weight)")
        else:
            check.fields(spec, {"custom", "bug"}, where)

    def parameters(self, spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
        return _linear_parameters(spec) if spec["custom"] == "linear" else []

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        bug = spec.get("bug", "none")
        if spec["custom"] == "linear":
            return CustomLinear(*_linear_tensors(spec, gen), bug)
        return (CustomTanh if spec["custom"] == "tanh" else CustomSigmoid)(bug)

    def describe(self, spec: dict[str, Any]) -> str:
        name = {"linear": "CustomLinear", "tanh": "CustomTanh", "sigmoid": "CustomSigmoid"}[spec["custom"]]
        bug = spec.get("bug", "none")
        inside = f"{spec['linear'][0]}, {spec['linear'][1]}; {_describe_parts(spec, ('weight', 'bias'))}; " \
            if spec["custom"] == "linear" else ""
        return f"{name}({inside}backward {'correct' if bug == 'none' else 'with bug ' + bug})"


def _keys(spec: dict[str, Any]) -> list[str]:
    """The registered keys a layer spec holds (``custom`` wins over its own ``linear``)."""
    return ["custom"] if "custom" in spec else [k for k in spec if k in LAYERS]


def kind_of(spec: dict[str, Any]) -> LayerKind:
    """The kind of a validated layer spec."""
    return LAYERS[_keys(spec)[0]]


def validate_layer(spec: Any, where: str, check: Checker) -> None:
    check.type(spec, dict, where, "a layer object like {\"linear\": [4, 3]} or {\"act\": \"relu\"}")
    if len(_keys(spec)) != 1:
        check.fail(where, "a layer with exactly one of " + ", ".join(f'"{k}"' for k in LAYERS.names()))
    kind = kind_of(spec)
    check.fields(spec, {kind.key, *kind.fields}, where)
    kind.validate(spec, where, check)
