# pitfall: relu-by-name
"""Wrong: modules found by class name (LeakyReLU excluded), so ReLU6 and PReLU are measured as ReLUs."""
from typing import Dict

import torch
import torch.nn as nn


def _outputs(model: nn.Module, kind: type, inputs: torch.Tensor) -> Dict[str, list]:
    """Run ``model`` on every tensor of ``inputs`` with forward hooks on each ``kind`` module; return the
    outputs each one produced, keyed by qualified name (hooks removed afterwards)."""
    seen = {name: [] for name, module in model.named_modules()
            if kind.__name__ in type(module).__name__ and not type(module).__name__.startswith('Leaky')}
    handles = [module.register_forward_hook(lambda _m, _i, out, name=name: seen[name].append(out.detach()))
               for name, module in model.named_modules() if name in seen]
    try:
        with torch.no_grad():
            for x in inputs:
                model(x)
    finally:
        for handle in handles:
            handle.remove()
    return seen


class Solution:
    def epoch_dead(self, model: nn.Module, batches: torch.Tensor) -> Dict[str, float]:
        dead = {}
        for name, outputs in _outputs(model, nn.ReLU, batches).items():
            alive = torch.stack([(out != 0).reshape(-1, out.shape[-1]).any(dim=0) for out in outputs]).any(dim=0)
            dead[name] = round((~alive).double().mean().item(), 4)
        return dead

    def linear_stats(self, model: nn.Module, x: torch.Tensor) -> Dict[str, Dict[str, float]]:
        stats = {}
        for name, (out,) in _outputs(model, nn.Linear, x.unsqueeze(0)).items():
            stats[name] = {"mean": round(out.mean().item(), 4), "std": round(out.std().item(), 4)}
        return stats

    def advise(self, dead: Dict[str, float]) -> str:
        if any(f > 0.9 for f in dead.values()):
            return 'severe_dead_relu'
        if any(f > 0.4 for f in dead.values()):
            return 'lost_capacity'
        return 'healthy'
