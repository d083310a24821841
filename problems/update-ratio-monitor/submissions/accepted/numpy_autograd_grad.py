# variant: gradients from torch.autograd.grad, norms and logs in NumPy, optimizer class looked up by name
from typing import Any, Dict, List

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

CLASSES = {'sgd': torch.optim.SGD, 'adam': torch.optim.Adam, 'adamw': torch.optim.AdamW}


class Solution:
    def step_ratios(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor,
                    optimizer: Dict[str, Any]) -> List[Dict[str, float]]:
        params = list(model.parameters())
        grads = torch.autograd.grad(F.mse_loss(model(x), y), params)
        for p, g in zip(params, grads):
            p.grad = g.clone()  # replaces whatever was stored before
        kwargs = {k: v for k, v in optimizer.items() if k != 'name'}
        if 'betas' in kwargs:
            kwargs['betas'] = tuple(kwargs['betas'])
        linears = [m for m in model.children() if isinstance(m, nn.Linear)]
        before = [m.weight.detach().cpu().numpy().astype(np.float64) for m in linears]
        grad = [m.weight.grad.detach().cpu().numpy().astype(np.float64) for m in linears]
        CLASSES[optimizer['name']](params, **kwargs).step()
        rows = []
        for m, w0, g in zip(linears, before, grad):
            w1 = m.weight.detach().cpu().numpy().astype(np.float64)
            wn, un = np.linalg.norm(w0), np.linalg.norm(w1 - w0)
            rows.append({'weight_norm': float(wn), 'grad_norm': float(np.linalg.norm(g)), 'update_norm': float(un),
                         'log10_ratio': float(np.log10(np.maximum(un / wn, 1e-12)))})
        return rows

    def lr_advice(self, log10_ratios: List[float]) -> str:
        if len(log10_ratios) == 0:
            return 'ok'
        r = np.asarray(log10_ratios, dtype=np.float64)
        if (r > -2).any():
            return 'lr_too_high'
        if (r < -4).all():
            return 'lr_too_low'
        if np.ptp(r) > 2:
            return 'unbalanced_layers'
        return 'ok'
