"""Accepted: forward hooks record every module's output, F.cross_entropy, Categorical entropy, calculate_gain targets."""
import math
from typing import Any, Dict, List

import torch
import torch.nn as nn
import torch.nn.functional as F


def _target(linear: nn.Linear, following) -> float:
    fan_out, fan_in = linear.weight.shape
    if isinstance(following, nn.ReLU):
        return nn.init.calculate_gain('relu') / math.sqrt(fan_in)
    if isinstance(following, nn.LeakyReLU):
        return nn.init.calculate_gain('leaky_relu', following.negative_slope) / math.sqrt(fan_in)
    gain = nn.init.calculate_gain('tanh') if isinstance(following, nn.Tanh) else 1.0
    return gain * math.sqrt(2.0 / (fan_in + fan_out))


class Solution:
    def checkup(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, lr: float) -> Dict[str, Any]:
        for p in model.parameters():
            p.grad = None
        modules = list(model.children())
        outputs = {}
        handles = [m.register_forward_hook(lambda mod, inp, out, i=i: outputs.__setitem__(i, out.detach()))
                   for i, m in enumerate(modules) if isinstance(m, (nn.ReLU, nn.Sigmoid, nn.Tanh))]
        try:
            logits = model(x)
        finally:
            for h in handles:
                h.remove()
        F.cross_entropy(logits, labels).backward()

        dead, saturated = [], []
        for i, m in enumerate(modules):
            if i not in outputs:
                continue
            a = outputs[i]
            if isinstance(m, nn.ReLU):
                dead.append((a == 0).all(dim=0).float().mean().item())
            else:
                d = a * (1 - a) if isinstance(m, nn.Sigmoid) else 1 - a.pow(2)
                saturated.append((d < 0.1).float().mean().item())

        z = logits.detach()
        entropy = torch.distributions.Categorical(logits=z).entropy().mean().item()
        spread = (z.amax(dim=1) - z.amin(dim=1)).max().item()

        grads, updates, ratios = [], [], []
        for i, m in enumerate(modules):
            if not isinstance(m, nn.Linear):
                continue
            g = torch.linalg.vector_norm(m.weight.grad).item()
            grads.append(math.log10(max(g, 1e-30)))
            updates.append(math.log10(max(lr * g / torch.linalg.vector_norm(m.weight.detach()).item(), 1e-12)))
            following = modules[i + 1] if i + 1 < len(modules) else None
            ratios.append(m.weight.detach().std().item() / _target(m, following))
        return {"dead_fraction": dead, "saturated_fraction": saturated,
                "entropy_ratio": entropy / math.log(z.shape[1]), "max_spread": spread,
                "grad_log10": grads, "update_log10": updates, "init_ratio": ratios}

    def findings(self, report: Dict[str, Any]) -> Dict[str, Any]:
        g, u = report["grad_log10"], report["update_log10"]
        checks = {
            'dead_relu': lambda: max(report["dead_fraction"], default=0.0) > 0.5,
            'saturated_activations': lambda: max(report["saturated_fraction"], default=0.0) > 0.5,
            'softmax_saturated': lambda: report["max_spread"] > 50,
            'exploding_gradients': lambda: any(v > 3 for v in g),
            'vanishing_gradients': lambda: len(g) > 1 and all(b > a for a, b in zip(g, g[1:])) and g[-1] - g[0] > 2,
            'lr_too_high': lambda: any(v > -2 for v in u),
            'lr_too_low': lambda: bool(u) and max(u) < -4,
            'bad_init': lambda: any(not (0.5 <= r <= 2) for r in report["init_ratio"]),
        }
        found: List[str] = [name for name, check in checks.items() if check()]
        return {"all": found, "primary": found[0] if found else "healthy"}
