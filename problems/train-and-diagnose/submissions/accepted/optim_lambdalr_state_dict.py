# torch.optim with a LambdaLR scheduler for the warmup, clip_grad_norm_'s own return value as grad_norm, and a
# range test that reloads the saved initial state_dict into the same model before every lr.
import math
from typing import Any, Dict, List

import torch
import torch.nn as nn


def build(params, spec):
    kind = spec['name']
    if kind == 'sgd':
        return torch.optim.SGD(params, lr=spec['lr'], momentum=spec['momentum'], nesterov=spec['nesterov'],
                               weight_decay=spec['weight_decay'])
    cls = {'adam': torch.optim.Adam, 'adamw': torch.optim.AdamW}[kind]
    return cls(params, lr=spec['lr'], betas=(spec['betas'][0], spec['betas'][1]), eps=spec['eps'],
               weight_decay=spec['weight_decay'])


class Solution:
    def _loop(self, model, x, labels, spec, steps, clip, warmup):
        opt = build(model.parameters(), spec)
        schedule = torch.optim.lr_scheduler.LambdaLR(opt, lambda t: min(1.0, (t + 1) / warmup))
        ce = nn.CrossEntropyLoss()
        hist = {'loss': [], 'grad_norm': [], 'lr': [], 'param_norm': []}
        stopped = -1
        for t in range(steps):
            model.zero_grad(set_to_none=False)
            loss = ce(model(x), labels)
            if not torch.isfinite(loss) or loss.item() > 1e4:
                stopped = t
                break
            loss.backward()
            if clip > 0:
                norm = torch.nn.utils.clip_grad_norm_(model.parameters(), clip).item()
            else:
                norm = torch.linalg.vector_norm(
                    torch.stack([torch.linalg.vector_norm(p.grad) for p in model.parameters()])).item()
            hist['lr'].append(opt.param_groups[0]['lr'])
            opt.step()
            schedule.step()
            hist['loss'].append(loss.item())
            hist['grad_norm'].append(norm)
            with torch.no_grad():
                hist['param_norm'].append(torch.cat([p.reshape(-1) for p in model.parameters()]).norm().item())
        if stopped == -1:
            with torch.no_grad():
                hist['final_loss'] = ce(model(x), labels).item()
        else:
            hist['final_loss'] = hist['loss'][-1]
        hist['stopped_at'] = stopped
        return hist

    def train(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, config: Dict[str, Any]) -> Dict[str, Any]:
        return self._loop(model, x, labels, config['optimizer'], config['steps'], config['clip_max_norm'],
                          config['warmup_steps'])

    def lr_range_test(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, lrs: List[float],
                      steps: int) -> Dict[str, Any]:
        initial = {k: v.detach().clone() for k, v in model.state_dict().items()}
        finals = []
        for lr in lrs:
            model.load_state_dict(initial)
            spec = {'name': 'sgd', 'lr': lr, 'momentum': 0, 'nesterov': False, 'weight_decay': 0}
            run = self._loop(model, x, labels, spec, steps, 0, 1)
            finals.append(run['final_loss'] if run['stopped_at'] == -1 else -1.0)
        candidates = sorted((f, lr) for f, lr in zip(finals, lrs) if f != -1.0)
        return {'final_losses': finals, 'best_lr': candidates[0][1]}

    def diagnose_run(self, record: Dict[str, Any]) -> str:
        loss, g = record['loss'], record['grad_norm']
        rules = [
            ('diverged', lambda: record['stopped_at'] >= 0),
            ('exploding_gradients', lambda: max(g) > 10 * g[0]),
            ('lr_too_high', lambda: loss[-1] > loss[0]),
            ('plateau', lambda: (loss[0] - loss[-1]) / loss[0] < 0.01),
        ]
        return next((name for name, fires in rules if fires()), 'healthy')
