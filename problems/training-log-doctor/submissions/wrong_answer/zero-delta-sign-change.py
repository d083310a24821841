# pitfall: zero-delta-sign-change
import statistics
from typing import Dict, List, Optional


def _improvement(losses: List[float]) -> float:
    if len(losses) < 2:
        return 0.0
    w = max(1, len(losses) // 5)
    head = sum(losses[:w]) / w
    tail = sum(losses[-w:]) / w
    return (head - tail) / head


def _oscillation(losses: List[float]) -> float:
    if len(losses) < 3:
        return 0.0
    deltas = [b - a for a, b in zip(losses, losses[1:])]
    flips = sum(1 for d, e in zip(deltas, deltas[1:]) if d * e <= 0)
    return flips / (len(losses) - 2)


def _grad_spike(norms: List[float]) -> float:
    if len(norms) < 2:
        return 1.0
    return max(norms[t] / statistics.median(norms[:t]) for t in range(1, len(norms)))


class Solution:
    def summarize(self, log: List[Dict[str, Optional[float]]]) -> Dict[str, float]:
        first = next((i for i, record in enumerate(log) if record['loss'] is None), -1)
        finite = log if first < 0 else log[:first]
        losses = [r['loss'] for r in finite]
        growth = finite[-1]['param_norm'] / finite[0]['param_norm'] if len(finite) >= 2 else 1.0
        return {
            'first_nonfinite': first,
            'improvement': round(_improvement(losses), 4),
            'oscillation': round(_oscillation(losses), 4),
            'grad_spike': round(_grad_spike([r['grad_norm'] for r in finite]), 4),
            'weight_growth': round(growth, 4),
        }

    def diagnose(self, summary: Dict[str, float]) -> Dict[str, str]:
        if summary['first_nonfinite'] >= 0:
            found = ('nan_loss', 'lower_lr_and_clip')
        elif summary['grad_spike'] > 10:
            found = ('exploding_gradients', 'clip_gradients')
        elif summary['oscillation'] > 0.5:
            found = ('lr_too_high', 'lower_lr')
        elif summary['improvement'] < 0.01:
            found = ('plateau', 'check_activations')
        elif summary['weight_growth'] > 2:
            found = ('weights_growing', 'increase_weight_decay')
        elif summary['weight_growth'] < 0.5:
            found = ('weights_shrinking', 'decrease_weight_decay')
        else:
            found = ('healthy', 'none')
        return {'diagnosis': found[0], 'action': found[1]}
