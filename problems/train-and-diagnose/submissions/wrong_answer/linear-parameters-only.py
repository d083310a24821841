# pitfall: linear-parameters-only
"""Wrong: grad_norm and param_norm are taken over the nn.Linear parameters only, so a PReLU's slopes are left out of both."""
import copy
import math
from typing import Any, Dict, List

import torch
import torch.nn as nn

MAX_LOSS = 1e4
EXPLODE_RATIO = 10.0
PLATEAU_MIN = 0.01


def _optimizer(params, spec: Dict[str, Any]) -> torch.optim.Optimizer:
    """torch.optim.SGD / Adam / AdamW configured from every key of the spec (none left to its default)."""
    if spec['name'] == 'sgd':
        return torch.optim.SGD(params, lr=spec['lr'], momentum=spec['momentum'], nesterov=spec['nesterov'],
                               weight_decay=spec['weight_decay'])
    cls = torch.optim.Adam if spec['name'] == 'adam' else torch.optim.AdamW
    return cls(params, lr=spec['lr'], betas=tuple(spec['betas']), eps=spec['eps'], weight_decay=spec['weight_decay'])


def _global_norm(tensors) -> float:
    return math.sqrt(sum(t.detach().pow(2).sum().item() for t in tensors))


def _stops(loss: float) -> bool:
    return not math.isfinite(loss) or loss > MAX_LOSS


def _run(model: nn.Module, x: torch.Tensor, labels: torch.Tensor, optimizer: Dict[str, Any], steps: int,
         clip: float, warmup: int, seen: List[tuple] = None) -> Dict[str, Any]:
    """The training loop of the statement; ``seen`` collects (value, threshold) pairs for _boundaries."""
    params = list(model.parameters())
    linear = [p for m in model.modules() if isinstance(m, nn.Linear) for p in m.parameters()]
    opt = _optimizer(params, optimizer)
    loss_fn = nn.CrossEntropyLoss()
    record = {'loss': [], 'grad_norm': [], 'lr': [], 'param_norm': []}
    stopped_at = -1
    for t in range(steps):
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), labels)
        value = loss.item()
        if seen is not None and math.isfinite(value):
            seen.append((value, MAX_LOSS))
        if _stops(value):
            stopped_at = t
            break
        loss.backward()
        grad_norm = _global_norm(p.grad for p in linear if p.grad is not None)
        if clip > 0:
            if seen is not None:
                seen.append((grad_norm + 1e-6, clip))
            torch.nn.utils.clip_grad_norm_(params, clip)
        lr = optimizer['lr'] * min(1.0, (t + 1) / warmup)
        for group in opt.param_groups:
            group['lr'] = lr
        opt.step()
        record['loss'].append(value)
        record['grad_norm'].append(grad_norm)
        record['lr'].append(lr)
        record['param_norm'].append(_global_norm(linear))
    if stopped_at >= 0:
        final = record['loss'][-1]
    else:
        with torch.no_grad():
            final = loss_fn(model(x), labels).item()
    record['final_loss'] = final
    record['stopped_at'] = stopped_at
    return record


def _plain_sgd(lr: float) -> Dict[str, Any]:
    return {'name': 'sgd', 'lr': lr, 'momentum': 0.0, 'nesterov': False, 'weight_decay': 0.0}


def _range_test(model, x, labels, lrs, steps, seen=None) -> Dict[str, Any]:
    finals = []
    for lr in lrs:
        run = _run(copy.deepcopy(model), x, labels, _plain_sgd(lr), steps, 0.0, 1, seen)
        finals.append(-1.0 if run['stopped_at'] >= 0 else run['final_loss'])
    completed = [(f, lr) for f, lr in zip(finals, lrs) if f != -1.0]
    best = min(completed)  # smallest final loss; ties go to the smaller lr
    if seen is not None:
        seen.extend((f - best[0], 0.0) for f, _ in completed)
    return {'final_losses': finals, 'best_lr': best[1]}


class Solution:
    def train(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, config: Dict[str, Any]) -> Dict[str, Any]:
        run = _run(model, x, labels, config['optimizer'], config['steps'], config['clip_max_norm'],
                   config['warmup_steps'])
        out = {key: [round(v, 4) for v in run[key]] for key in ('loss', 'grad_norm', 'lr', 'param_norm')}
        out['final_loss'] = round(run['final_loss'], 4)
        out['stopped_at'] = run['stopped_at']
        return out

    def lr_range_test(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, lrs: List[float],
                      steps: int) -> Dict[str, Any]:
        result = _range_test(model, x, labels, lrs, steps)
        return {'final_losses': [round(f, 4) for f in result['final_losses']], 'best_lr': result['best_lr']}

    def diagnose_run(self, record: Dict[str, Any]) -> str:
        if record['stopped_at'] >= 0:
            return 'diverged'
        loss, grad_norm = record['loss'], record['grad_norm']
        if max(grad_norm) / grad_norm[0] > EXPLODE_RATIO:
            return 'exploding_gradients'
        if loss[-1] > loss[0]:
            return 'lr_too_high'
        if (loss[0] - loss[-1]) / loss[0] < PLATEAU_MIN:
            return 'plateau'
        return 'healthy'

    def _boundaries(self, *args: Any) -> List[tuple]:
        """Author-side (judge gen, G1): every loss the stop rule compared with 1e4, every clipped gradient norm
        (clip_grad_norm_'s coefficient max_norm / (norm + 1e-6) reaches 1 there) and, in a range test, every
        completed run's final loss against the best one (a near-tie would decide best_lr by noise)."""
        if not args or not isinstance(args[0], nn.Module):
            return []
        seen: List[tuple] = []
        if isinstance(args[3], dict):
            model, x, labels, config = args
            _run(model, x, labels, config['optimizer'], config['steps'], config['clip_max_norm'],
                 config['warmup_steps'], seen)
        else:
            model, x, labels, lrs, steps = args
            _range_test(model, x, labels, lrs, steps, seen)
        return seen
