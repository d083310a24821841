# variant: plain Python, itertools.takewhile for F, statistics.fmean and statistics.median, math.copysign signs
import itertools
import math
import statistics
from typing import Dict, List, Optional

ACTIONS = {
    'nan_loss': 'lower_lr_and_clip', 'exploding_gradients': 'clip_gradients', 'lr_too_high': 'lower_lr',
    'plateau': 'check_activations', 'weights_growing': 'increase_weight_decay',
    'weights_shrinking': 'decrease_weight_decay', 'healthy': 'none',
}


def _sign(value: float) -> int:
    return 0 if value == 0 else int(math.copysign(1, value))


class Solution:
    def summarize(self, log: List[Dict[str, Optional[float]]]) -> Dict[str, float]:
        kept = list(itertools.takewhile(lambda r: r['loss'] is not None, log))
        first = len(kept) if len(kept) < len(log) else -1
        losses = [r['loss'] for r in kept]
        norms = [r['grad_norm'] for r in kept]
        summary = {'first_nonfinite': first, 'improvement': 0.0, 'oscillation': 0.0,
                   'grad_spike': 1.0, 'weight_growth': 1.0}
        if len(kept) >= 2:
            w = max(1, len(kept) // 5)
            head = statistics.fmean(losses[:w])
            summary['improvement'] = round((head - statistics.fmean(losses[-w:])) / head, 4)
            summary['grad_spike'] = round(max(g / statistics.median(norms[:t]) for t, g in enumerate(norms) if t), 4)
            summary['weight_growth'] = round(kept[-1]['param_norm'] / kept[0]['param_norm'], 4)
        if len(kept) >= 3:
            signs = [_sign(b - a) for a, b in itertools.pairwise(losses)]
            flips = sum(s * u == -1 for s, u in itertools.pairwise(signs))
            summary['oscillation'] = round(flips / (len(kept) - 2), 4)
        return summary

    def diagnose(self, summary: Dict[str, float]) -> Dict[str, str]:
        if summary['first_nonfinite'] >= 0:
            name = 'nan_loss'
        elif summary['grad_spike'] > 10:
            name = 'exploding_gradients'
        elif summary['oscillation'] > 0.5:
            name = 'lr_too_high'
        elif summary['improvement'] < 0.01:
            name = 'plateau'
        elif summary['weight_growth'] > 2:
            name = 'weights_growing'
        elif summary['weight_growth'] < 0.5:
            name = 'weights_shrinking'
        else:
            name = 'healthy'
        return {'diagnosis': name, 'action': ACTIONS[name]}
