# pitfall: init-target-by-name
"""Wrong: the init target is chosen by the class name of the module after the Linear (any case), so a ReLU6 or a PReLU gets the ReLU's target and a Hardtanh the Tanh's."""
import math
from typing import Any, Dict, List, Optional

import torch
import torch.nn as nn

SATURATED_GAIN = 0.1
GRAD_FLOOR = 1e-30
RATIO_FLOOR = 1e-12
TANH_GAIN = 5.0 / 3.0


def _r(value: float) -> float:
    return round(value, 4)


def _target_std(fan_in: int, fan_out: int, following: Optional[nn.Module]) -> float:
    """init-audit's target, chosen by the module that follows the Linear (GELU, SiLU, Sigmoid, ... fall through)."""
    name = type(following).__name__.lower()
    if 'leakyrelu' in name:
        a = following.negative_slope
        return math.sqrt(2.0 / (1.0 + a * a)) / math.sqrt(fan_in)
    if 'relu' in name:
        return math.sqrt(2.0) / math.sqrt(fan_in)
    xavier = math.sqrt(2.0 / (fan_in + fan_out))
    return TANH_GAIN * xavier if 'tanh' in name else xavier


def _forward(model: nn.Module, x: torch.Tensor):
    """model.children() applied in order; the logits (the last output, whatever the last module is), every
    ReLU output, every Sigmoid/Tanh local derivative (detached) and every Linear with the module after it."""
    children = list(model.children())
    dead, gains, linears = [], [], []
    h = x
    for i, layer in enumerate(children):
        h = layer(h)
        a = h.detach()
        if isinstance(layer, nn.ReLU):
            dead.append(a)
        elif isinstance(layer, nn.Sigmoid):
            gains.append(a * (1 - a))
        elif isinstance(layer, nn.Tanh):
            gains.append(1 - a * a)
        elif isinstance(layer, nn.Linear):
            linears.append((layer, children[i + 1] if i + 1 < len(children) else None))
    return h, dead, gains, linears


class Solution:
    def checkup(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, lr: float) -> Dict[str, Any]:
        model.zero_grad(set_to_none=True)
        z, dead, gains, linears = _forward(model, x)
        nn.CrossEntropyLoss()(z, labels).backward()

        z = z.detach()
        log_p = torch.log_softmax(z, dim=1)
        entropy = -(log_p.exp() * log_p).sum(dim=1)
        spread = z.max(dim=1).values - z.min(dim=1).values

        grad_log10, update_log10, init_ratio = [], [], []
        for layer, following in linears:
            w, g = layer.weight.detach(), layer.weight.grad
            grad_norm = g.norm().item()
            grad_log10.append(_r(math.log10(max(grad_norm, GRAD_FLOOR))))
            update_log10.append(_r(math.log10(max(lr * grad_norm / w.norm().item(), RATIO_FLOOR))))
            fan_out, fan_in = w.shape
            init_ratio.append(_r(w.std().item() / _target_std(fan_in, fan_out, following)))

        return {
            "dead_fraction": [_r((a == 0).all(dim=0).double().mean().item()) for a in dead],
            "saturated_fraction": [_r((d < SATURATED_GAIN).double().mean().item()) for d in gains],
            "entropy_ratio": _r(entropy.mean().item() / math.log(z.shape[1])),
            "max_spread": _r(spread.max().item()),
            "grad_log10": grad_log10,
            "update_log10": update_log10,
            "init_ratio": init_ratio,
        }

    def findings(self, report: Dict[str, Any]) -> Dict[str, Any]:
        grads, updates = report["grad_log10"], report["update_log10"]
        rules = [
            ('dead_relu', any(f > 0.5 for f in report["dead_fraction"])),
            ('saturated_activations', any(f > 0.5 for f in report["saturated_fraction"])),
            ('softmax_saturated', report["max_spread"] > 50),
            ('exploding_gradients', any(g > 3 for g in grads)),
            ('vanishing_gradients', len(grads) >= 2 and all(a < b for a, b in zip(grads, grads[1:]))
             and grads[-1] - grads[0] > 2),
            ('lr_too_high', any(u > -2 for u in updates)),
            ('lr_too_low', len(updates) > 0 and all(u < -4 for u in updates)),
            ('bad_init', any(r > 2 or r < 0.5 for r in report["init_ratio"])),
        ]
        found = [name for name, matches in rules if matches]
        return {"all": found, "primary": found[0] if found else 'healthy'}

    def _boundaries(self, *args: Any) -> List[tuple]:
        """Author-side (judge gen, G1): comparisons made inside checkup (every Sigmoid/Tanh local derivative
        against 0.1) and those findings would make on the gradient profile (neighbours against each other,
        last - first against 2), which no single reported number carries."""
        if len(args) != 4 or not isinstance(args[0], nn.Module):
            return []
        model, x, labels, _ = args
        _, _, gains, _ = _forward(model, x)
        pairs = [(d, SATURATED_GAIN) for d in gains]
        model.zero_grad(set_to_none=True)
        z, _, _, linears = _forward(model, x)
        nn.CrossEntropyLoss()(z, labels).backward()
        logs = [math.log10(max(layer.weight.grad.norm().item(), GRAD_FLOOR)) for layer, _ in linears]
        pairs += [(b - a, 0.0) for a, b in zip(logs, logs[1:])]
        if len(logs) >= 2:
            pairs.append((logs[-1] - logs[0], 2.0))
        return pairs
