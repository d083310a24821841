# The model's parameters are lifted into a dict of leaf tensors and the model is run with
# torch.func.functional_call: gradients come from torch.autograd.grad, torch.optim steps the leaves (their .grad
# set by hand), clipping uses get_total_norm and clip_grads_with_norm_, and the range test starts every lr from
# a fresh clone of the leaves, so the given model is never touched.
from typing import Any, Dict, List

import torch
import torch.nn as nn
from torch.func import functional_call
from torch.nn.utils import clip_grads_with_norm_, get_total_norm

OPTIMIZERS = {'sgd': torch.optim.SGD, 'adam': torch.optim.Adam, 'adamw': torch.optim.AdamW}


def optimizer_for(leaves, spec):
    kwargs = {k: (tuple(v) if k == 'betas' else v) for k, v in spec.items() if k != 'name'}
    return OPTIMIZERS[spec['name']](leaves, **kwargs)


def fit(model, weights, x, labels, spec, steps, clip, warmup):
    leaves = list(weights.values())
    opt = optimizer_for(leaves, spec)
    loss_of = lambda: nn.functional.cross_entropy(functional_call(model, weights, (x,)), labels)
    log = {'loss': [], 'grad_norm': [], 'lr': [], 'param_norm': []}
    for t in range(steps):
        loss = loss_of()
        value = float(loss.detach())
        if not bool(torch.isfinite(loss.detach())) or value > 1e4:
            log['final_loss'], log['stopped_at'] = log['loss'][-1], t
            return log
        grads = torch.autograd.grad(loss, leaves)
        for leaf, g in zip(leaves, grads):
            leaf.grad = g
        norm = get_total_norm(grads)
        if clip > 0:
            clip_grads_with_norm_(leaves, clip, norm)
        for group in opt.param_groups:
            group['lr'] = spec['lr'] * min(1.0, (t + 1) / warmup)
        opt.step()
        log['loss'].append(value)
        log['grad_norm'].append(float(norm))
        log['lr'].append(opt.param_groups[0]['lr'])
        log['param_norm'].append(float(get_total_norm(leaves)))
    with torch.no_grad():
        log['final_loss'] = float(loss_of())
    log['stopped_at'] = -1
    return log


def leaves_of(model):
    return {name: p.detach().clone().requires_grad_(True) for name, p in model.named_parameters()}


class Solution:
    def train(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, config: Dict[str, Any]) -> Dict[str, Any]:
        return fit(model, leaves_of(model), x, labels, config['optimizer'], config['steps'],
                   config['clip_max_norm'], config['warmup_steps'])

    def lr_range_test(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, lrs: List[float],
                      steps: int) -> Dict[str, Any]:
        finals = []
        for lr in lrs:
            spec = {'name': 'sgd', 'lr': lr, 'momentum': 0.0, 'nesterov': False, 'weight_decay': 0.0}
            log = fit(model, leaves_of(model), x, labels, spec, steps, 0.0, 1)
            finals.append(-1.0 if log['stopped_at'] >= 0 else log['final_loss'])
        order = sorted(range(len(lrs)), key=lambda i: (finals[i], lrs[i]))
        best = next(i for i in order if finals[i] != -1.0)
        return {'final_losses': finals, 'best_lr': lrs[best]}

    def diagnose_run(self, record: Dict[str, Any]) -> str:
        if record['stopped_at'] >= 0:
            return 'diverged'
        g = torch.tensor(record['grad_norm'], dtype=torch.float64)
        losses = record['loss']
        if (g.max() / g[0]).item() > 10:
            return 'exploding_gradients'
        change = (losses[0] - losses[-1]) / losses[0]
        if losses[-1] > losses[0]:
            return 'lr_too_high'
        if change < 0.01:
            return 'plateau'
        return 'healthy'
