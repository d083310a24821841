# pitfall: best-includes-diverged
# diverged runs (final loss -1.0) take part in the choice of best_lr
import copy
import math
from typing import Any, Dict, List

import torch
import torch.nn as nn


def make_optimizer(params, spec: Dict[str, Any]) -> torch.optim.Optimizer:
    if spec['name'] == 'sgd':
        return torch.optim.SGD(params, lr=spec['lr'], momentum=spec['momentum'], nesterov=spec['nesterov'],
                               weight_decay=spec['weight_decay'])
    if spec['name'] == 'adam':
        return torch.optim.Adam(params, lr=spec['lr'], betas=tuple(spec['betas']), eps=spec['eps'],
                                weight_decay=spec['weight_decay'])
    return torch.optim.AdamW(params, lr=spec['lr'], betas=tuple(spec['betas']), eps=spec['eps'],
                             weight_decay=spec['weight_decay'])


def total_norm(tensors) -> float:
    return math.sqrt(sum(float(t.detach().pow(2).sum()) for t in tensors))


def run(model, x, labels, spec, steps, clip, warmup):
    params = list(model.parameters())
    opt = make_optimizer(params, spec)
    loss_fn = nn.CrossEntropyLoss()
    out = {'loss': [], 'grad_norm': [], 'lr': [], 'param_norm': []}
    stopped_at = -1
    for t in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(x), labels)
        value = loss.item()
        if not math.isfinite(value) or value > 1e4:
            stopped_at = t
            break
        loss.backward()
        grad_norm = total_norm(p.grad for p in params if p.grad is not None)
        if clip > 0:
            torch.nn.utils.clip_grad_norm_(params, clip)
        lr = spec['lr'] * min(1.0, (t + 1) / warmup)
        for group in opt.param_groups:
            group['lr'] = lr
        opt.step()
        out['loss'].append(value)
        out['grad_norm'].append(grad_norm)
        out['lr'].append(lr)
        out['param_norm'].append(total_norm(params))
    if stopped_at >= 0:
        final = out['loss'][-1]
    else:
        with torch.no_grad():
            final = loss_fn(model(x), labels).item()
    out['final_loss'] = final
    out['stopped_at'] = stopped_at
    return out


class Solution:
    def train(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, config: Dict[str, Any]) -> Dict[str, Any]:
        return run(model, x, labels, config['optimizer'], config['steps'], config['clip_max_norm'],
                   config['warmup_steps'])

    def lr_range_test(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, lrs: List[float],
                      steps: int) -> Dict[str, Any]:
        finals = []
        for lr in lrs:
            spec = {'name': 'sgd', 'lr': lr, 'momentum': 0.0, 'nesterov': False, 'weight_decay': 0.0}
            result = run(copy.deepcopy(model), x, labels, spec, steps, 0.0, 1)
            finals.append(-1.0 if result['stopped_at'] >= 0 else result['final_loss'])
        best = None
        for lr, final in zip(lrs, finals):
            if best is None or final < best[0] or (final == best[0] and lr < best[1]):
                best = (final, lr)
        return {'final_losses': finals, 'best_lr': best[1]}

    def diagnose_run(self, record: Dict[str, Any]) -> str:
        if record['stopped_at'] >= 0:
            return 'diverged'
        loss, grads = record['loss'], record['grad_norm']
        if max(grads) / grads[0] > 10:
            return 'exploding_gradients'
        if loss[-1] > loss[0]:
            return 'lr_too_high'
        if (loss[0] - loss[-1]) / loss[0] < 0.01:
            return 'plateau'
        return 'healthy'
