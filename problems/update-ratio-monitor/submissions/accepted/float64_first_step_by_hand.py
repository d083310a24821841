# variant: the optimizers' first step written out by hand in float64, nothing rounded
import math
from typing import Any, Dict, List

import torch
import torch.nn as nn


def _first_step(w: torch.Tensor, g: torch.Tensor, opt: Dict[str, Any]) -> torch.Tensor:
    """The update W_after - W_before of one step from a fresh optimizer state."""
    lr, wd = opt['lr'], opt['weight_decay']
    if opt['name'] == 'sgd':
        d = g + wd * w
        if opt['momentum'] and opt['nesterov']:
            d = d + opt['momentum'] * d  # the momentum buffer starts as d
        return -lr * d
    b1, b2 = opt['betas']
    if opt['name'] == 'adam':
        g = g + wd * w
    m_hat = (1 - b1) * g / (1 - b1)
    v_hat = (1 - b2) * g * g / (1 - b2)
    step = -lr * m_hat / (v_hat.sqrt() + opt['eps'])
    if opt['name'] == 'adamw':
        step = step - lr * wd * w
    return step


class Solution:
    def step_ratios(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor,
                    optimizer: Dict[str, Any]) -> List[Dict[str, float]]:
        for p in model.parameters():
            p.grad = None
        out = model(x)
        ((out - y) ** 2).mean().backward()
        rows = []
        for layer in model.children():
            if not isinstance(layer, nn.Linear):
                continue
            w = layer.weight.detach().double()
            g = layer.weight.grad.double()
            u = _first_step(w, g, optimizer)
            w_norm = math.sqrt((w * w).sum().item())
            u_norm = math.sqrt((u * u).sum().item())
            rows.append({'weight_norm': w_norm, 'grad_norm': math.sqrt((g * g).sum().item()),
                         'update_norm': u_norm, 'log10_ratio': math.log10(max(u_norm / w_norm, 1e-12))})
        return rows

    def lr_advice(self, log10_ratios: List[float]) -> str:
        r = log10_ratios
        if len(r) == 0:
            return 'ok'
        if max(r) > -2.0:
            return 'lr_too_high'
        if max(r) < -4.0:
            return 'lr_too_low'
        return 'unbalanced_layers' if max(r) - min(r) > 2.0 else 'ok'
