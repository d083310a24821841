"""What a built object contributes to a case's ``build_sha256``.

Every kind builds one of three things, and each is hashed by everything a submission could observe:

* a tensor: its shape and bytes (NaN payloads and infinities included), and its dtype unless float32;
* a module: every parameter and its ``.grad`` in ``named_parameters()`` order, then every buffer (BatchNorm's
  running statistics), then -- only where they depart from a freshly built PyTorch module -- the parameters
  whose ``.grad`` is ``None`` while others have one, the frozen parameters, the submodules in eval mode, and the
  settings of the judge's own modules (a custom layer's bug, a branched model's wiring). PyTorch modules'
  settings (a dropout rate, a convolution's stride) come from the spec that both sides read, and their ``repr``
  changes between torch versions, so they are not hashed;
* a config: its JSON text, keys sorted.

Hashing the departures only keeps the checksums of models that have none (every case written before these
kinds existed) exactly as they were.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from judge.package.kinds.lazy import nn, torch


def _tensor(h: hashlib._Hash, t: torch.Tensor) -> None:
    h.update(str(tuple(t.shape)).encode())
    if t.dtype != torch.float32:
        h.update(str(t.dtype).encode())
    h.update(t.detach().cpu().contiguous().numpy().tobytes())


def _names(h: hashlib._Hash, label: str, names: list[str]) -> None:
    if names:
        h.update(f"{label}:{','.join(names)}".encode())


def _module(h: hashlib._Hash, module: nn.Module) -> None:
    params = list(module.named_parameters())
    for _, p in params:
        _tensor(h, p.detach())
        if p.grad is not None:
            _tensor(h, p.grad)
    for name, buffer in module.named_buffers():
        h.update(name.encode())
        _tensor(h, buffer)
    missing = [name for name, p in params if p.grad is None]
    _names(h, "grad None", missing if len(missing) < len(params) else [])
    _names(h, "frozen", [name for name, p in params if not p.requires_grad])
    _names(h, "eval", [name or "(model)" for name, m in module.named_modules() if not m.training])
    for name, m in module.named_modules():
        if type(m).__module__.startswith("judge.") and m.extra_repr():
            h.update(f"{name}:{m.extra_repr()}".encode())


def update(h: hashlib._Hash, obj: Any) -> None:
    """Add one built object to ``h``."""
    if isinstance(obj, torch.Tensor):
        _tensor(h, obj)
    elif isinstance(obj, nn.Module):
        _module(h, obj)
    else:
        h.update(json.dumps(obj, sort_keys=True, allow_nan=False).encode())
