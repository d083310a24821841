"""Plain-language descriptions of a case's inputs, for statements and for the reports of visible cases."""

from __future__ import annotations

import json
from typing import Any

from judge.package.cases import Case

_INIT_PARAMS = ("value", "mean", "std", "low", "high", "gain")


def describe_init(init: dict[str, Any]) -> str:
    scheme = init["init"]
    if scheme == "values":
        return f"values {json.dumps(init['values'])}"
    params = ", ".join(f"{k}={init[k]}" for k in _INIT_PARAMS if k in init)
    return f"{scheme}({params})" if params else scheme


def _layer(spec: dict[str, Any]) -> str:
    if "act" in spec:
        names = {"relu": "ReLU()", "sigmoid": "Sigmoid()", "tanh": "Tanh()",
                 "leaky_relu": f"LeakyReLU({spec.get('negative_slope', 0.01)})"}
        return names[spec["act"]]
    fan_in, fan_out = spec["linear"]
    weight = describe_init(spec.get("weight", {"init": "default"}))
    bias = describe_init(spec.get("bias", {"init": "default"}))
    return f"Linear({fan_in}, {fan_out}; weight {weight}, bias {bias})"


def describe_object(spec: dict[str, Any]) -> str:
    if spec["kind"] == "tensor":
        shape = "×".join(str(d) for d in spec["shape"])
        return f"tensor {shape}, {describe_init(spec)}, seed {spec['seed']}"
    text = "nn.Sequential(" + ", ".join(_layer(layer) for layer in spec["layers"]) + f"), seed {spec['seed']}"
    if "stale_grad" in spec:
        text += f"; every .grad already holds {describe_init(spec['stale_grad'])} from an earlier backward pass"
    return text


def describe_call(call: dict[str, Any]) -> str:
    args = ", ".join(a[1:] if isinstance(a, str) and a.startswith("$") else json.dumps(a) for a in call["args"])
    return f"{call['method']}({args})"


def describe_inputs(case: Case) -> list[str]:
    """One line per object, then one per call."""
    return [f"{name} = {describe_object(spec)}" for name, spec in case.objects.items()] + [
        describe_call(call) for call in case.calls]
