"""Data kinds: ``tensor`` (float32, or int64 with exact values) and ``labels`` (class indices, int64)."""

from __future__ import annotations

import math
from typing import Any

from judge.package.kinds.base import GEN, OBJECTS, Checker, Code, ObjectKind, literal, say_in, seeded_code
from judge.package.kinds.inits import (SCHEMES, cast_code, describe_init, draw, draw_code, flat_values, size_code,
                                       validate_init)
from judge.package.kinds.lazy import torch

DTYPES = ("float32", "int64")
"""the dtypes a tensor may have, by their names in ``torch``"""
EXACT_SCHEMES = ("zeros", "constant", "values")
"""the schemes an int64 tensor may use: nothing random, nothing to round"""


@OBJECTS.register
class Tensor(ObjectKind):
    name = "tensor"
    fields = frozenset({"seed", "shape", "dtype", *(p for s in SCHEMES.values() for p in s.params), "init"})
    summary = "a tensor of a given shape drawn by an INIT"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        check.seed(spec.get("seed"), f"{where}.seed")
        shape = check.dims(spec.get("shape"), f"{where}.shape", allow_zero=True)
        dtype = check.choice(spec.get("dtype", "float32"), DTYPES, f"{where}.dtype")
        validate_init({k: v for k, v in spec.items() if k not in ("kind", "seed", "shape", "dtype")}, where,
                      check, shape)
        if dtype == "int64":
            if spec["init"] not in EXACT_SCHEMES:
                check.fail(f"{where}.init", "expect_one_of_for_int64", names=", ".join(f'"{s}"' for s in EXACT_SCHEMES))
            if spec["init"] != "zeros" and any(float(v) != math.floor(v) for v in flat_values(spec)):
                check.fail(f"{where}.{'value' if spec['init'] == 'constant' else 'values'}", "expect_whole_numbers")

    def build(self, spec: dict[str, Any]) -> torch.Tensor:
        gen = torch.Generator().manual_seed(spec["seed"])
        return draw(spec, list(spec["shape"]), gen).to(getattr(torch, spec.get("dtype", "float32")))

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        shape = "×".join(str(d) for d in spec["shape"])
        dtype = f" {spec['dtype']}" if "dtype" in spec else ""
        return say_in(lang, "describe_tensor", shape=shape, dtype=dtype, init=describe_init(spec, lang),
                      seed=spec["seed"])

    def code(self, spec: dict[str, Any], name: str) -> Code:
        to = ".float()" if spec.get("dtype", "float32") == "float32" else f".to(torch.{spec['dtype']})"
        return seeded_code(spec["seed"], [f"{name} = {cast_code(draw_code(spec, size_code(spec['shape'])), to)}"])


@OBJECTS.register
class Labels(ObjectKind):
    name = "labels"
    fields = frozenset({"seed", "n", "num_classes", "values"})
    summary = "a 1-D int64 tensor of class indices, drawn or given"

    def validate(self, spec: dict[str, Any], where: str, check: Checker) -> None:
        if "values" in spec:
            check.fields(spec, {"kind", "values", "num_classes"}, where)
            values = check.type(spec["values"], list, f"{where}.values", "expect_class_indices")
            top = check.integer(spec.get("num_classes", 2**62), f"{where}.num_classes", low=1)
            for i, v in enumerate(values):
                check.integer(v, f"{where}.values[{i}]", 0, top - 1)
        else:
            check.seed(spec.get("seed"), f"{where}.seed")
            check.integer(spec.get("n"), f"{where}.n", low=0)
            check.integer(spec.get("num_classes"), f"{where}.num_classes", low=1)

    def build(self, spec: dict[str, Any]) -> torch.Tensor:
        if "values" in spec:
            return torch.tensor(spec["values"], dtype=torch.int64)
        gen = torch.Generator().manual_seed(spec["seed"])
        return torch.randint(spec["num_classes"], (spec["n"],), generator=gen, dtype=torch.int64)

    def describe(self, spec: dict[str, Any], lang: str = "en") -> str:
        if "values" in spec:
            return say_in(lang, "describe_labels", values=spec["values"])
        return say_in(lang, "describe_labels_drawn", n=spec["n"], top=spec["num_classes"] - 1, seed=spec["seed"])

    def code(self, spec: dict[str, Any], name: str) -> Code:
        if "values" in spec:
            return Code([f"{name} = torch.tensor({literal(spec['values'])}, dtype=torch.int64)"])
        return seeded_code(spec["seed"], [f"{name} = torch.randint({spec['num_classes']}, ({spec['n']},), "
                                          f"generator={GEN}, dtype=torch.int64)"])
