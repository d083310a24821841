# variant: weights compared through state_dict snapshots, linalg.vector_norm, rounded to 4 decimals
import math
from typing import Any, Dict, List

import torch
import torch.nn as nn


def _build(params, spec: Dict[str, Any]) -> torch.optim.Optimizer:
    name = spec['name']
    if name == 'sgd':
        return torch.optim.SGD(params, spec['lr'], momentum=spec['momentum'], weight_decay=spec['weight_decay'],
                               nesterov=spec['nesterov'])
    b1, b2 = spec['betas']
    kind = {'adam': torch.optim.Adam, 'adamw': torch.optim.AdamW}[name]
    return kind(params, spec['lr'], betas=(b1, b2), eps=spec['eps'], weight_decay=spec['weight_decay'])


class Solution:
    def step_ratios(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor,
                    optimizer: Dict[str, Any]) -> List[Dict[str, float]]:
        names = [f'{n}.weight' for n, m in model.named_children() if isinstance(m, nn.Linear)]
        model.zero_grad(set_to_none=True)
        loss = nn.functional.mse_loss(model(x), y, reduction='mean')
        loss.backward()
        params = dict(model.named_parameters())
        before = {k: v.detach().clone() for k, v in model.state_dict().items()}
        gnorm = {k: torch.linalg.vector_norm(params[k].grad).item() for k in names}
        _build(model.parameters(), spec=optimizer).step()
        after = model.state_dict()
        out = []
        for k in names:
            wn = torch.linalg.vector_norm(before[k]).item()
            un = torch.linalg.vector_norm(after[k] - before[k]).item()
            lr = math.log10(un / wn) if un / wn > 1e-12 else -12.0
            out.append({'weight_norm': round(wn, 4), 'grad_norm': round(gnorm[k], 4),
                        'update_norm': round(un, 4), 'log10_ratio': round(lr, 4)})
        return out

    def lr_advice(self, log10_ratios: List[float]) -> str:
        rules = (
            (lambda r: not r, 'ok'),
            (lambda r: any(v > -2.0 for v in r), 'lr_too_high'),
            (lambda r: all(v < -4.0 for v in r), 'lr_too_low'),
            (lambda r: max(r) - min(r) > 2.0, 'unbalanced_layers'),
        )
        return next((name for test, name in rules if test(log10_ratios)), 'ok')
