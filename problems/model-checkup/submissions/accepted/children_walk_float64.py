"""Accepted: a manual walk over model.children() in float64, retain_grad-free (weights' .grad), nothing rounded."""
import math
from typing import Any, Dict

import torch
import torch.nn as nn

RULES = ('dead_relu', 'saturated_activations', 'softmax_saturated', 'exploding_gradients',
         'vanishing_gradients', 'lr_too_high', 'lr_too_low', 'bad_init')


class Solution:
    def checkup(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, lr: float) -> Dict[str, Any]:
        model = model.double()
        model.zero_grad(set_to_none=True)
        layers = list(model.children())
        report = {k: [] for k in ("dead_fraction", "saturated_fraction", "grad_log10", "update_log10", "init_ratio")}
        h = x.double()
        for layer in layers:
            h = layer(h)
            with torch.no_grad():
                if type(layer) is nn.ReLU:
                    alive = (h > 0).any(dim=0)
                    report["dead_fraction"].append(1.0 - alive.double().mean().item())
                elif type(layer) in (nn.Sigmoid, nn.Tanh):
                    slope = h * (1 - h) if type(layer) is nn.Sigmoid else (1 - h) * (1 + h)
                    report["saturated_fraction"].append((slope < 0.1).sum().item() / slope.numel())
        nn.CrossEntropyLoss()(h, labels).backward()
        with torch.no_grad():
            log_p = torch.log_softmax(h, dim=-1)
            report["entropy_ratio"] = (-(log_p.exp() * log_p).sum(-1)).mean().item() / math.log(h.shape[-1])
            report["max_spread"] = (h.max(-1).values - h.min(-1).values).max().item()
            for i, layer in enumerate(layers):
                if type(layer) is not nn.Linear:
                    continue
                w, gw = layer.weight, layer.weight.grad
                gnorm = gw.pow(2).sum().sqrt().item()
                report["grad_log10"].append(math.log10(gnorm) if gnorm > 1e-30 else -30.0)
                ratio = lr * gnorm / w.pow(2).sum().sqrt().item()
                report["update_log10"].append(math.log10(ratio) if ratio > 1e-12 else -12.0)
                fan_in, fan_out = w.shape[1], w.shape[0]
                nxt = layers[i + 1] if i + 1 < len(layers) else None
                if type(nxt) is nn.ReLU:
                    target = math.sqrt(2.0 / fan_in)
                elif type(nxt) is nn.LeakyReLU:
                    target = math.sqrt(2.0 / ((1 + nxt.negative_slope ** 2) * fan_in))
                else:
                    target = math.sqrt(2.0 / (fan_in + fan_out)) * (5.0 / 3.0 if type(nxt) is nn.Tanh else 1.0)
                std = math.sqrt(((w - w.mean()) ** 2).sum().item() / (w.numel() - 1))
                report["init_ratio"].append(std / target)
        return report

    def findings(self, report: Dict[str, Any]) -> Dict[str, Any]:
        g = report["grad_log10"]
        rising = len(g) >= 2 and all(g[i] < g[i + 1] for i in range(len(g) - 1))
        hits = {
            'dead_relu': [f for f in report["dead_fraction"] if f > 0.5],
            'saturated_activations': [f for f in report["saturated_fraction"] if f > 0.5],
            'softmax_saturated': [1] if report["max_spread"] > 50 else [],
            'exploding_gradients': [v for v in g if v > 3],
            'vanishing_gradients': [1] if rising and g[-1] - g[0] > 2 else [],
            'lr_too_high': [u for u in report["update_log10"] if u > -2],
            'lr_too_low': [1] if report["update_log10"] and all(u < -4 for u in report["update_log10"]) else [],
            'bad_init': [r for r in report["init_ratio"] if r > 2 or r < 0.5],
        }
        found = [name for name in RULES if hits[name]]
        return {"all": found, "primary": (found or ['healthy'])[0]}
