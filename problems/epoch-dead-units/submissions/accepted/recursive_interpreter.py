"""Accepted: no hooks; a recursive interpreter runs the tree itself (nn.Sequential in order, a residual block as
x + body(x)) and records outputs by qualified name."""
from typing import Callable, Dict

import torch
import torch.nn as nn


def _run(module: nn.Module, x: torch.Tensor, prefix: str, record: Callable[[str, nn.Module, torch.Tensor], None]):
    if isinstance(module, nn.Sequential):
        for name, child in module.named_children():
            x = _run(child, x, f"{prefix}.{name}" if prefix else name, record)
        return x
    if hasattr(module, "body"):          # the judge's residual block: x + body(x)
        return x + _run(module.body, x, f"{prefix}.body" if prefix else "body", record)
    y = module(x)
    record(prefix, module, y)
    return y


class Solution:
    def epoch_dead(self, model: nn.Module, batches: torch.Tensor) -> Dict[str, float]:
        fired: Dict[str, torch.Tensor] = {}

        def record(name, module, y):
            if type(module) is nn.ReLU:
                now = (y > 0).any(dim=0)
                fired[name] = now if name not in fired else fired[name] | now

        with torch.no_grad():
            for batch in batches.unbind(0):
                _run(model, batch, "", record)
        return {name: round(1.0 - f.sum().item() / f.numel(), 4) for name, f in fired.items()}

    def linear_stats(self, model: nn.Module, x: torch.Tensor) -> Dict[str, Dict[str, float]]:
        stats = {}

        def record(name, module, y):
            if type(module) is nn.Linear:
                y = y.double()
                stats[name] = {"mean": round(y.mean().item(), 4), "std": round(torch.std(y).item(), 4)}

        with torch.no_grad():
            _run(model, x, "", record)
        return stats

    def advise(self, dead: Dict[str, float]) -> str:
        for threshold, verdict in ((0.9, 'severe_dead_relu'), (0.4, 'lost_capacity')):
            if any(v > threshold for v in dead.values()):
                return verdict
        return 'healthy'
