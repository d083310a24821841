"""What a built object contributes to a case's ``build_sha256``.

Every kind builds one of three things, and each is hashed by everything a submission could observe:

* a tensor: its shape and bytes (NaN payloads and infinities included), and its dtype unless float32;
* a module: every parameter and its ``.grad`` in ``named_parameters()`` order, then every buffer (BatchNorm's
  running statistics), then -- only where they depart from a freshly built PyTorch module -- the parameters
  whose ``.grad`` is ``None`` while others have one, the frozen parameters, the submodules in eval mode, and the
  settings of the judge's own modules: a custom layer's bug (by the rule it holds, named as in its case file:
  :mod:`.autograd_layers`), what each head of a branched model does to a probe (:func:`.modules.route_trace`),
  and a residual block's ``repr``. None of these modules shows its settings itself. PyTorch modules' settings
  (a dropout rate, a convolution's stride) come from the spec that both sides read, and their ``repr`` changes
  between torch versions, so they are not hashed;
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
        settings = _settings(m)
        if settings:
            h.update(f"{name}:{settings}".encode())


def _settings(module: nn.Module) -> str:
    """A judge-built module's settings as the checksum has always hashed them (the text a custom layer's
    ``repr`` once showed, so that checksums written before it stopped showing them still hold)."""
    if not type(module).__module__.startswith("judge."):
        return ""
    from judge.package.kinds import autograd_layers, custom, modules  # torch's classes: imported when first built

    rule = autograd_layers.rule_index(module)
    if rule is not None:
        kind = next(k for k, (cls, _) in autograd_layers.LAYERS.items() if type(module) is cls)
        bug = f"bug={custom.BUGS[kind][rule]!r}"
        return f"{module.extra_repr()}, {bug}" if module.extra_repr() else bug
    if isinstance(module, modules.Branched):
        return ", ".join(f"{name}: {modules.route_trace(module._routes[name])}" for name in module.heads)
    return module.extra_repr()


def update(h: hashlib._Hash, obj: Any) -> None:
    """Add one built object to ``h``."""
    if isinstance(obj, torch.Tensor):
        _tensor(h, obj)
    elif isinstance(obj, nn.Module):
        _module(h, obj)
    else:
        h.update(json.dumps(obj, sort_keys=True, allow_nan=False).encode())
