"""Accepted: torch.autograd.grad for the weight gradients, every statistic in NumPy float64, unrounded."""
import math
from typing import Any, Dict

import numpy as np
import torch
import torch.nn as nn


class Solution:
    def checkup(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, lr: float) -> Dict[str, Any]:
        model.zero_grad()
        children = list(model.children())
        acts = []
        h = x
        for m in children:
            h = m(h)
            acts.append(h.detach().cpu().numpy().astype(np.float64))
        loss = nn.functional.cross_entropy(h, labels, reduction="mean")
        linears = [i for i, m in enumerate(children) if isinstance(m, nn.Linear)]
        grads = torch.autograd.grad(loss, [children[i].weight for i in linears])

        dead = [float(np.mean(np.all(a == 0, axis=0))) for m, a in zip(children, acts) if isinstance(m, nn.ReLU)]
        sat = []
        for m, a in zip(children, acts):
            if isinstance(m, nn.Sigmoid):
                sat.append(float(np.mean(a * (1 - a) < 0.1)))
            elif isinstance(m, nn.Tanh):
                sat.append(float(np.mean(1 - a ** 2 < 0.1)))

        z = acts[-1]
        shifted = z - z.max(axis=1, keepdims=True)
        log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        entropy = -(np.exp(log_p) * log_p).sum(axis=1).mean()

        g_logs, u_logs, ratios = [], [], []
        for i, g in zip(linears, grads):
            w = children[i].weight.detach().cpu().numpy().astype(np.float64)
            gn = float(np.linalg.norm(g.detach().cpu().numpy().astype(np.float64)))
            g_logs.append(float(np.log10(max(gn, 1e-30))))
            u_logs.append(float(np.log10(max(lr * gn / np.linalg.norm(w), 1e-12))))
            nxt = children[i + 1] if i + 1 < len(children) else None
            fan_out, fan_in = w.shape
            if isinstance(nxt, nn.ReLU):
                target = np.sqrt(2.0 / fan_in)
            elif isinstance(nxt, nn.LeakyReLU):
                target = np.sqrt(2.0 / (1 + nxt.negative_slope ** 2)) / np.sqrt(fan_in)
            elif isinstance(nxt, nn.Tanh):
                target = 5.0 / 3.0 * np.sqrt(2.0 / (fan_in + fan_out))
            else:
                target = np.sqrt(2.0 / (fan_in + fan_out))
            ratios.append(float(np.std(w, ddof=1) / target))
        return {"dead_fraction": dead, "saturated_fraction": sat, "entropy_ratio": float(entropy / math.log(z.shape[1])),
                "max_spread": float(np.max(z.max(axis=1) - z.min(axis=1))), "grad_log10": g_logs,
                "update_log10": u_logs, "init_ratio": ratios}

    def findings(self, report: Dict[str, Any]) -> Dict[str, Any]:
        g = np.asarray(report["grad_log10"], dtype=float)
        u = np.asarray(report["update_log10"], dtype=float)
        r = np.asarray(report["init_ratio"], dtype=float)
        out = []
        if np.any(np.asarray(report["dead_fraction"]) > 0.5):
            out.append("dead_relu")
        if np.any(np.asarray(report["saturated_fraction"]) > 0.5):
            out.append("saturated_activations")
        if report["max_spread"] > 50:
            out.append("softmax_saturated")
        if np.any(g > 3):
            out.append("exploding_gradients")
        if g.size >= 2 and np.all(np.diff(g) > 0) and g[-1] - g[0] > 2:
            out.append("vanishing_gradients")
        if np.any(u > -2):
            out.append("lr_too_high")
        if u.size and np.all(u < -4):
            out.append("lr_too_low")
        if np.any((r > 2) | (r < 0.5)):
            out.append("bad_init")
        return {"all": out, "primary": out[0] if out else "healthy"}
