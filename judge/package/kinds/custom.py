"""The ``custom`` layer kind: judge-built autograd layers with a correct forward and a correct or deliberately
wrong backward.

``backprop-bug-finder`` (catalogue problem 14) hands learners models built from these and asks which layer's
backward is broken. The layers themselves are in :mod:`.autograd_layers`; a layer's bug picks its backward's
rule there and leaves no other trace on it. On the way to a worker the bug travels as a hidden value
(:func:`judge.package.kinds.conceal`), never as text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.package.kinds.base import LAYERS, Checker, LayerKind, hide, say_in, shown
from judge.package.kinds.layers import describe_parts, linear_parameters, linear_tensors, validate_linear

BUGS: dict[str, tuple[str, ...]] = {
    "linear": ("none", "weight_grad_half", "bias_grad_zero", "input_grad_sign", "input_grad_transposed"),
    "tanh": ("none", "derivative_from_input"),
    "sigmoid": ("none", "missing_factor"),
}
"""the bugs each custom layer can carry; ``none`` is the correct backward"""

if TYPE_CHECKING:
    import torch
    from torch import nn


@LAYERS.register
class Custom(LayerKind):
    key = "custom"
    fields = frozenset({"bug", "linear", "weight", "bias"})
    summary = "a judge autograd.Function layer (linear, tanh, sigmoid) with a correct or broken backward"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        kind = check.choice(spec.get("custom"), BUGS, f"{where}.custom")
        bug = check.choice(spec.get("bug", "none"), BUGS[kind], f"{where}.bug")
        if kind == "linear":
            if spec.get("bias") is False:  # the statement's judge Linear is y = x Wᵀ + b
                check.fail(f"{where}.bias", "expect_judge_bias")
            validate_linear(spec, where, check)
            if bug == "input_grad_transposed" and spec["linear"][0] != spec["linear"][1]:
                check.fail(f"{where}.linear", "expect_square")
        else:
            check.fields(spec, {"custom", "bug"}, where)

    def parameters(self, spec: dict[str, Any]) -> list[tuple[str, list[int]]]:
        return linear_parameters(spec) if spec["custom"] == "linear" else []

    def build(self, spec: dict[str, Any], gen: torch.Generator) -> nn.Module:
        from judge.package.kinds.autograd_layers import LAYERS as MODULES  # torch's classes: imported when first built

        module, rules = MODULES[spec["custom"]]
        rule = rules[BUGS[spec["custom"]].index(spec.get("bug", "none"))]
        return module(*linear_tensors(spec, gen), rule) if spec["custom"] == "linear" else module(rule)

    def conceal(self, spec: dict[str, Any], hidden: list[float]) -> dict[str, Any]:
        return {**spec, "bug": hide(BUGS[spec["custom"]].index(spec.get("bug", "none")), hidden)}

    def reveal(self, spec: dict[str, Any], hidden: tuple[float, ...]) -> dict[str, Any]:
        return {**spec, "bug": BUGS[spec["custom"]][int(shown(spec["bug"], hidden))]}

    def constructor(self, spec: dict[str, Any]) -> None:
        """None: the layer's backward rule is its bug, which written code would have to name."""
        return None

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        name = {"linear": "CustomLinear", "tanh": "CustomTanh", "sigmoid": "CustomSigmoid"}[spec["custom"]]
        bug = spec.get("bug", "none")
        inside = f"{spec['linear'][0]}, {spec['linear'][1]}; {describe_parts(spec, ('weight', 'bias'), lang=lang)}; " \
            if spec["custom"] == "linear" else ""
        backward = say_in(lang, "describe_backward_correct") if bug == "none" else say_in(
            lang, "describe_backward_bug", bug=bug)
        return f"{name}({inside}{backward})"
