# Everything by hand in float64: gradients from torch.autograd.grad, clipping by the global norm, and the SGD
# (momentum, Nesterov, weight decay), Adam and AdamW updates written out; fresh copies with copy.deepcopy.
import copy
import math
from typing import Any, Dict, List

import torch
import torch.nn as nn
import torch.nn.functional as F


class HandOptimizer:
    def __init__(self, params, spec):
        self.params, self.spec, self.t = params, spec, 0
        self.state = [None] * len(params)

    def step(self, grads, lr):
        spec, self.t = self.spec, self.t + 1
        with torch.no_grad():
            for i, (p, g) in enumerate(zip(self.params, grads)):
                if spec['name'] == 'sgd':
                    if spec['weight_decay']:
                        g = g + spec['weight_decay'] * p
                    if spec['momentum']:
                        buf = g.clone() if self.state[i] is None else spec['momentum'] * self.state[i] + g
                        self.state[i] = buf
                        g = g + spec['momentum'] * buf if spec['nesterov'] else buf
                    p -= lr * g
                    continue
                b1, b2 = spec['betas']
                if spec['name'] == 'adamw':
                    p *= 1 - lr * spec['weight_decay']
                elif spec['weight_decay']:
                    g = g + spec['weight_decay'] * p
                if self.state[i] is None:
                    self.state[i] = (torch.zeros_like(p), torch.zeros_like(p))
                m, v = self.state[i]
                m = b1 * m + (1 - b1) * g
                v = b2 * v + (1 - b2) * g * g
                self.state[i] = (m, v)
                m_hat = m / (1 - b1 ** self.t)
                denom = (v / (1 - b2 ** self.t)).sqrt() + spec['eps']
                p -= lr * m_hat / denom


def trajectory(model, x, labels, spec, steps, clip, warmup):
    model = model.double()
    x = x.double()
    params = list(model.parameters())
    opt = HandOptimizer(params, spec)
    rows = []
    stopped = -1
    for t in range(steps):
        loss = F.cross_entropy(model(x), labels)
        value = float(loss.detach())
        if math.isnan(value) or math.isinf(value) or value > 1e4:
            stopped = t
            break
        grads = torch.autograd.grad(loss, params)  # fresh gradients: nothing accumulates in .grad
        norm = math.sqrt(sum(float((g * g).sum()) for g in grads))
        if clip > 0:
            scale = min(1.0, clip / (norm + 1e-6))
            grads = [g * scale for g in grads]
        lr = spec['lr'] * min(1.0, (t + 1) / warmup)
        opt.step(grads, lr)
        pnorm = math.sqrt(sum(float((p.detach() ** 2).sum()) for p in params))
        rows.append((value, norm, lr, pnorm))
    if stopped >= 0:
        final = rows[-1][0]
    else:
        with torch.no_grad():
            final = float(F.cross_entropy(model(x), labels))
    return rows, final, stopped


class Solution:
    def train(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, config: Dict[str, Any]) -> Dict[str, Any]:
        rows, final, stopped = trajectory(model, x, labels, config['optimizer'], config['steps'],
                                          config['clip_max_norm'], config['warmup_steps'])
        columns = list(zip(*rows)) if rows else [(), (), (), ()]
        out = {key: [round(v, 4) for v in col] for key, col in zip(('loss', 'grad_norm', 'lr', 'param_norm'), columns)}
        out['final_loss'] = round(final, 4)
        out['stopped_at'] = stopped
        return out

    def lr_range_test(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, lrs: List[float],
                      steps: int) -> Dict[str, Any]:
        finals = []
        best_lr, best_loss = None, math.inf
        for lr in lrs:
            spec = {'name': 'sgd', 'lr': lr, 'momentum': 0.0, 'nesterov': False, 'weight_decay': 0.0}
            _, final, stopped = trajectory(copy.deepcopy(model), x, labels, spec, steps, 0.0, 1)
            if stopped >= 0:
                finals.append(-1.0)
                continue
            finals.append(round(final, 4))
            if final < best_loss or (final == best_loss and lr < best_lr):
                best_lr, best_loss = lr, final
        return {'final_losses': finals, 'best_lr': best_lr}

    def diagnose_run(self, record: Dict[str, Any]) -> str:
        if record['stopped_at'] != -1:
            return 'diverged'
        first, last = record['loss'][0], record['loss'][-1]
        if any(g / record['grad_norm'][0] > 10 for g in record['grad_norm']):
            return 'exploding_gradients'
        if last > first:
            return 'lr_too_high'
        return 'plateau' if (first - last) / first < 0.01 else 'healthy'
