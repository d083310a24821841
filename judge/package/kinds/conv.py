"""Layer kinds for images: ``conv2d``, ``maxpool2d`` and ``flatten``, on ``[N, C, H, W]`` tensors.

A convolution's fans count its kernel as PyTorch does: ``fan_in = c_in·k·k``, ``fan_out = c_out·k·k``.
"""

from __future__ import annotations

from typing import Any

from judge.package.kinds.base import LAYERS, Checker, LayerKind
from judge.package.kinds.layers import describe_parts, draw_part, part_code, validate_parts
from judge.package.kinds.lazy import nn, torch


@LAYERS.register
class Conv2d(LayerKind):
    key = "conv2d"
    fields = frozenset({"stride", "padding", "weight", "bias"})
    summary = "nn.Conv2d(c_in, c_out, k) on [N, C, H, W] inputs"

    @staticmethod
    def fans(spec: dict[str, Any]) -> tuple[int, int]:
        c_in, c_out, k = spec["conv2d"]
        return c_in * k * k, c_out * k * k

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        check.dims(spec.get("conv2d"), f"{where}.conv2d", count=3)
        check.integer(spec.get("stride", 1), f"{where}.stride", low=1)
        check.integer(spec.get("padding", 0), f"{where}.padding", low=0)
        validate_parts(spec, where, check, dict(self.parameters(spec)))

    def parameters(self, spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
        c_in, c_out, k = spec["conv2d"]
        return [("weight", [c_out, c_in, k, k]), ("bias", [c_out])]

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        layer = nn.utils.skip_init(nn.Conv2d, *spec["conv2d"], stride=spec.get("stride", 1),
                                   padding=spec.get("padding", 0))
        shapes = dict(self.parameters(spec))
        for part in ("weight", "bias"):
            setattr(layer, part, nn.Parameter(draw_part(spec, part, shapes[part], gen, self.fans(spec))))
        return layer

    def describe(self, spec: dict[str, Any]) -> str:
        c_in, c_out, k = spec["conv2d"]
        return (f"Conv2d({c_in}, {c_out}, {k}, stride={spec.get('stride', 1)}, padding={spec.get('padding', 0)}; "
                f"{describe_parts(spec, ('weight', 'bias'))})")

    def constructor(self, spec: dict[str, Any]) -> str:
        c_in, c_out, k = spec["conv2d"]
        return f"nn.Conv2d({c_in}, {c_out}, {k}, stride={spec.get('stride', 1)}, padding={spec.get('padding', 0)})"

    def fill(self, spec: dict[str, Any], at: str) -> list[str]:
        shapes = dict(self.parameters(spec))
        return [line for part in ("weight", "bias")
                for line in part_code(spec, part, shapes[part], at, self.fans(spec))]


@LAYERS.register
class MaxPool2d(LayerKind):
    key = "maxpool2d"
    fields = frozenset({"stride"})
    summary = "nn.MaxPool2d(k), stride k unless given"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        check.integer(spec.get("maxpool2d"), f"{where}.maxpool2d", low=1)
        check.integer(spec.get("stride", 1), f"{where}.stride", low=1)

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        return nn.MaxPool2d(spec["maxpool2d"], spec.get("stride"))

    def describe(self, spec: dict[str, Any]) -> str:
        return f"MaxPool2d({spec['maxpool2d']}, stride={spec.get('stride', spec['maxpool2d'])})"

    def constructor(self, spec: dict[str, Any]) -> str:
        stride = f", stride={spec['stride']}" if "stride" in spec else ""
        return f"nn.MaxPool2d({spec['maxpool2d']}{stride})"


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

    def constructor(self, spec: dict[str, Any]) -> str:
        return "nn.Flatten()"
