"""Build a case's objects from their specification, checksum them, and run calls under a fixed seed.

Runs in the worker and in the author tools. Every kind (:mod:`judge.package.kinds`) draws in float64 on the CPU
from a private ``torch.Generator`` and then casts to float32, which makes the result bit-identical across CPU
kernels (see ``docs/numerics.md`` §2); the caller moves the objects to the judging device.
The spec has already been validated by :mod:`judge.package.cases`.
"""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any, Iterator

import torch
from torch import nn

from judge.package import kinds

CALL_SEED = 20240229
"""the seed of torch's global generator during every call, so that dropout draws the same masks everywhere"""


def build_objects(specs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {name: kinds.build_object(spec) for name, spec in specs.items()}


def checksum(objects: dict[str, Any]) -> str:
    """sha256 over every built object, in name order: a change in construction changes it."""
    h = hashlib.sha256()
    for name in sorted(objects):
        h.update(name.encode())
        kinds.digest.update(h, objects[name])
    return h.hexdigest()


def resolve_args(args: list[Any], objects: dict[str, Any]) -> list[Any]:
    """Replace every ``"$name"`` argument with the built object ``name``."""
    return [objects[a[1:]] if isinstance(a, str) and a.startswith("$") else a for a in args]


def to_device(obj: Any, device: str) -> Any:
    """Move a built object to ``device`` (``Module.to`` moves pre-filled gradients too); configs stay as they are."""
    return obj.to(device) if isinstance(obj, (nn.Module, torch.Tensor)) else obj


@contextlib.contextmanager
def seeded() -> Iterator[None]:
    """Seed torch's CPU generator (and the current CUDA device's, once CUDA is in use) with :data:`CALL_SEED` for
    the block, then restore the CPU generator, so a call that draws random numbers (dropout in train mode) draws
    the same ones in every run."""
    with torch.random.fork_rng(devices=[]):
        torch.default_generator.manual_seed(CALL_SEED)  # torch.manual_seed costs 0.5 ms: it visits every backend
        if torch.cuda.is_initialized():
            torch.cuda.manual_seed(CALL_SEED)
        yield
