"""Build a case's objects (models and tensors) from their specification.

Runs in the worker and in the author tools. Everything is drawn in float64 on the CPU from a private
``torch.Generator`` and then cast to float32, which makes the result bit-identical across CPU kernels
(see ``shared/research/numerics.md`` §2); the caller moves the objects to the judging device.
The spec has already been validated by :mod:`judge.package.cases`.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

import torch
from torch import nn


ACTIVATIONS = {  # constructors for the names validated in judge.package.cases
    "relu": lambda spec: nn.ReLU(),
    "sigmoid": lambda spec: nn.Sigmoid(),
    "tanh": lambda spec: nn.Tanh(),
    "leaky_relu": lambda spec: nn.LeakyReLU(spec.get("negative_slope", 0.01)),
}

F64 = torch.float64


def _uniform(shape: list[int], low: float, high: float, gen: torch.Generator) -> torch.Tensor:
    return torch.rand(shape, generator=gen, dtype=F64) * (high - low) + low


def draw(init: dict[str, Any], shape: list[int], gen: torch.Generator, fan_in: int = 1, fan_out: int = 1) -> torch.Tensor:
    """One float64 tensor of ``shape`` drawn by the scheme ``init`` (fans matter for layer schemes only)."""
    scheme = init["init"]
    if scheme == "zeros":
        return torch.zeros(shape, dtype=F64)
    if scheme == "constant":
        return torch.full(shape, float(init["value"]), dtype=F64)
    if scheme == "values":
        return torch.tensor(init["values"], dtype=F64).reshape(shape)
    if scheme == "normal":
        return torch.randn(shape, generator=gen, dtype=F64) * init.get("std", 1.0) + init.get("mean", 0.0)
    if scheme == "uniform":
        return _uniform(shape, init.get("low", -1.0), init.get("high", 1.0), gen)
    if scheme == "default":  # nn.Linear's own: U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for weight and bias
        bound = 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0
        return _uniform(shape, -bound, bound, gen)
    if scheme.startswith("kaiming"):
        std = init.get("gain", math.sqrt(2.0)) / math.sqrt(fan_in)
    else:  # xavier
        std = init.get("gain", 1.0) * math.sqrt(2.0 / (fan_in + fan_out))
    if scheme.endswith("normal"):
        return torch.randn(shape, generator=gen, dtype=F64) * std
    bound = math.sqrt(3.0) * std
    return _uniform(shape, -bound, bound, gen)


def _linear(spec: dict[str, Any], gen: torch.Generator) -> nn.Linear:
    fan_in, fan_out = spec["linear"]
    layer = nn.utils.skip_init(nn.Linear, fan_in, fan_out)
    default = {"init": "default"}
    weight = draw(spec.get("weight", default), [fan_out, fan_in], gen, fan_in, fan_out)
    bias = draw(spec.get("bias", default), [fan_out], gen, fan_in, fan_out)
    layer.weight = nn.Parameter(weight.float())
    layer.bias = nn.Parameter(bias.float())
    return layer


def build_mlp(spec: dict[str, Any]) -> nn.Sequential:
    gen = torch.Generator().manual_seed(spec["seed"])
    layers = [_linear(s, gen) if "linear" in s else ACTIVATIONS[s["act"]](s) for s in spec["layers"]]
    model = nn.Sequential(*layers)
    if "stale_grad" in spec:
        for p in model.parameters():
            p.grad = draw(spec["stale_grad"], list(p.shape), gen).float()
    return model


def build_tensor(spec: dict[str, Any]) -> torch.Tensor:
    gen = torch.Generator().manual_seed(spec["seed"])
    return draw(spec, list(spec["shape"]), gen).float()


def build_object(spec: dict[str, Any]) -> nn.Module | torch.Tensor:
    return build_mlp(spec) if spec["kind"] == "mlp" else build_tensor(spec)


def build_objects(specs: dict[str, dict[str, Any]]) -> dict[str, nn.Module | torch.Tensor]:
    return {name: build_object(spec) for name, spec in specs.items()}


def _tensors(obj: nn.Module | torch.Tensor) -> list[torch.Tensor]:
    if isinstance(obj, torch.Tensor):
        return [obj]
    found = []
    for p in obj.parameters():
        found.append(p.detach())
        if p.grad is not None:
            found.append(p.grad)
    return found


def checksum(objects: dict[str, nn.Module | torch.Tensor]) -> str:
    """sha256 over every built float32 tensor, in name order: a change in construction changes it."""
    h = hashlib.sha256()
    for name in sorted(objects):
        h.update(name.encode())
        for t in _tensors(objects[name]):
            h.update(str(tuple(t.shape)).encode())
            h.update(t.detach().cpu().contiguous().numpy().tobytes())
    return h.hexdigest()


def resolve_args(args: list[Any], objects: dict[str, Any]) -> list[Any]:
    """Replace every ``"$name"`` argument with the built object ``name``."""
    return [objects[a[1:]] if isinstance(a, str) and a.startswith("$") else a for a in args]


def to_device(obj: Any, device: str) -> Any:
    """Move a built object to ``device`` (``Module.to`` moves pre-filled gradients too)."""
    return obj.to(device) if isinstance(obj, (nn.Module, torch.Tensor)) else obj
