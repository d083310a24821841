"""Layer kinds for images: ``conv2d``, ``maxpool2d`` and ``flatten``, on ``[N, C, H, W]`` tensors.

A convolution's kernel, stride and padding are each an int (the same in both directions) or a pair ``[h, w]``, as
``nn.Conv2d`` takes them, so a case can build every kernel a statement allows (``C_in · k_h · k_w``: a rectangular
kernel tells ``k_h · k_w`` from ``k_h · k_h``). Its fans count the kernel as PyTorch does:
``fan_in = c_in·k_h·k_w``, ``fan_out = c_out·k_h·k_w``.
"""

from __future__ import annotations

from typing import Any

from judge.package.kinds.base import LAYERS, Checker, LayerKind, literal
from judge.package.kinds.layers import (bias_argument, describe_parts, draw_part, filled, has_bias, part_code,
                                        validate_weight_and_bias)
from judge.package.kinds.lazy import nn, torch


def _pair(value: int | list[int]) -> tuple[int, int]:
    """An int or ``[h, w]`` as ``(h, w)``."""
    return (value, value) if isinstance(value, int) else (value[0], value[1])


def _check_pair(check: Checker, value: Any, where: str, low: int) -> None:
    """An int ``>= low``, or a list of two such ints."""
    if isinstance(value, list):
        if len(value) != 2 or any(type(v) is not int or v < low for v in value):
            check.fail(where, "expect_int_or_pair", low=low)
    else:
        check.integer(value, where, low=low)


@LAYERS.register
class Conv2d(LayerKind):
    key = "conv2d"
    fields = frozenset({"stride", "padding", "weight", "bias"})
    summary = ("nn.Conv2d(c_in, c_out, k) on [N, C, H, W] inputs; k, stride and padding an int or [h, w]; "
               "\"bias\": false for none")

    @staticmethod
    def fans(spec: dict[str, Any]) -> tuple[int, int]:
        c_in, c_out, k = spec["conv2d"]
        k_h, k_w = _pair(k)
        return c_in * k_h * k_w, c_out * k_h * k_w

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        value = spec.get("conv2d")
        if not isinstance(value, list) or len(value) != 3:
            check.fail(f"{where}.conv2d", "expect_conv_dims")
        check.dims(value[:2], f"{where}.conv2d")
        _check_pair(check, value[2], f"{where}.conv2d[2]", low=1)
        _check_pair(check, spec.get("stride", 1), f"{where}.stride", low=1)
        _check_pair(check, spec.get("padding", 0), f"{where}.padding", low=0)
        c_in, c_out, k = value
        validate_weight_and_bias(spec, where, check, [c_out, c_in, *_pair(k)], [c_out])

    def parameters(self, spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
        c_in, c_out, k = spec["conv2d"]
        return [("weight", [c_out, c_in, *_pair(k)])] + ([("bias", [c_out])] if has_bias(spec) else [])

    @staticmethod
    def _arguments(spec: dict[str, Any]) -> tuple[int, int, int | tuple[int, int], int | tuple[int, int],
                                                   int | tuple[int, int]]:
        """``nn.Conv2d``'s arguments, a pair given as a tuple."""
        c_in, c_out, k = spec["conv2d"]

        def given(value: int | list[int]) -> int | tuple[int, int]:
            return value if isinstance(value, int) else _pair(value)

        return c_in, c_out, given(k), given(spec.get("stride", 1)), given(spec.get("padding", 0))

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        c_in, c_out, k, stride, padding = self._arguments(spec)
        parts = {part: draw_part(spec, part, shape, gen, self.fans(spec)) for part, shape in self.parameters(spec)}
        return filled(nn.Conv2d, parts, c_in, c_out, k, stride=stride, padding=padding, bias=has_bias(spec))

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        return f"{self._call(spec)}; {describe_parts(spec, ('weight', 'bias'), lang=lang)})"

    def constructor(self, spec: dict[str, Any]) -> str:
        return f"nn.{self._call(spec)}{bias_argument(spec)})"

    def _call(self, spec: dict[str, Any]) -> str:
        """``Conv2d(c_in, c_out, k, stride=s, padding=p`` without its closing bracket, its bias left out."""
        c_in, c_out, k, stride, padding = self._arguments(spec)
        return f"Conv2d({c_in}, {c_out}, {literal(k)}, stride={literal(stride)}, padding={literal(padding)}"

    def fill(self, spec: dict[str, Any], at: str) -> list[str]:
        return [line for part, shape in self.parameters(spec)
                for line in part_code(spec, part, shape, at, self.fans(spec))]


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

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
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
            check.fail(f"{where}.flatten", "expect_true")

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        return nn.Flatten()

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        return "Flatten()"

    def constructor(self, spec: dict[str, Any]) -> str:
        return "nn.Flatten()"
