"""Config kinds: validated dictionaries the solution reads. They build to plain dicts.

Every key is given explicitly in a case (AdamW's default weight decay is 0.01, Adam's 0: a silent default would
hide what the case tests), and an unknown or misspelt key fails validation instead of reaching the solution.

* ``optimizer`` (``update-ratio-monitor``, catalogue problem 6): ``{"kind": "optimizer", "name": "sgd", "lr",
  "momentum", "nesterov", "weight_decay"}`` or ``{"kind": "optimizer", "name": "adam" | "adamw", "lr", "betas",
  "eps", "weight_decay"}``; builds to the same dict without ``kind``.
* ``training`` (``train-and-diagnose``, problem 16): ``{"kind": "training", "optimizer": {...an optimizer without
  "kind"...}, "steps", "clip_max_norm", "warmup_steps"}``; builds to the dict without ``kind``.
"""

from __future__ import annotations

import copy
import json
from typing import Any, ClassVar

from judge.package.kinds.base import OBJECTS, Checker, Code, ObjectKind, literal, say_in

OPTIMIZERS: dict[str, tuple[str, ...]] = {
    "sgd": ("lr", "momentum", "nesterov", "weight_decay"),
    "adam": ("lr", "betas", "eps", "weight_decay"),
    "adamw": ("lr", "betas", "eps", "weight_decay"),
}
"""each optimizer's keys besides ``name``, all required"""
MAX_STEPS = 30
"""training loops stay short, so float32 noise cannot grow chaotic"""


def _require(spec: dict[str, Any], keys: tuple[str, ...], where: str, check: Checker) -> None:
    check.fields(spec, {"kind", *keys}, where)
    for key in keys:
        if key not in spec:
            check.fail(f"{where}.{key}", "expect_value_for", key=key)


def validate_optimizer(spec: Any, where: str, check: Checker) -> None:
    check.type(spec, dict, where, "expect_optimizer_object")
    name = check.choice(spec.get("name"), OPTIMIZERS, f"{where}.name")
    _require(spec, ("name", *OPTIMIZERS[name]), where, check)
    check.number(spec["lr"], f"{where}.lr", 0.0, strict_low=True)
    check.number(spec["weight_decay"], f"{where}.weight_decay", 0.0)
    if name == "sgd":
        check.number(spec["momentum"], f"{where}.momentum", 0.0, 1.0)
        check.type(spec["nesterov"], bool, f"{where}.nesterov", "expect_bool")
        if spec["nesterov"] and spec["momentum"] == 0:
            check.fail(f"{where}.momentum", "expect_nesterov_momentum")
    else:
        betas = check.type(spec["betas"], list, f"{where}.betas", "expect_betas")
        if len(betas) != 2:
            check.fail(f"{where}.betas", "expect_betas")
        for i, beta in enumerate(betas):
            check.number(beta, f"{where}.betas[{i}]", 0.0, 1.0)
            if beta == 1.0:
                check.fail(f"{where}.betas[{i}]", "expect_beta")
        check.number(spec["eps"], f"{where}.eps", 0.0, strict_low=True)


class _Config(ObjectKind):
    def build(self, spec: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy({k: v for k, v in spec.items() if k != "kind"})

    said: ClassVar[str]
    """the message key that names the config before its JSON"""

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        return say_in(lang, self.said, config=json.dumps(self.build(spec), ensure_ascii=False))

    def code(self, spec: dict[str, Any], name: str) -> Code:
        return Code([f"{name} = {literal(self.build(spec))}"])


@OBJECTS.register
class Optimizer(_Config):
    name = "optimizer"
    said = "describe_optimizer"
    fields = frozenset({"name", *(k for keys in OPTIMIZERS.values() for k in keys)})
    summary = "an optimizer config (sgd, adam, adamw), built as a plain dict"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        validate_optimizer(spec, where, check)


@OBJECTS.register
class Training(_Config):
    name = "training"
    said = "describe_training"
    fields = frozenset({"optimizer", "steps", "clip_max_norm", "warmup_steps"})
    summary = "a training-run config (optimizer, steps, clipping, warmup), built as a plain dict"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        _require(spec, tuple(sorted(self.fields)), where, check)
        validate_optimizer(spec["optimizer"], f"{where}.optimizer", check)
        if "kind" in spec["optimizer"]:
            check.fail(f"{where}.optimizer.kind", "expect_no_nested_kind")
        check.integer(spec["steps"], f"{where}.steps", 1, MAX_STEPS)
        check.number(spec["clip_max_norm"], f"{where}.clip_max_norm", 0.0)
        check.integer(spec["warmup_steps"], f"{where}.warmup_steps", low=1)
