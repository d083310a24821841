# variant: NumPy arrays, np.median (mean of the two middle values), np.diff, nothing rounded
from typing import Dict, List, Optional

import numpy as np


class Solution:
    def summarize(self, log: List[Dict[str, Optional[float]]]) -> Dict[str, float]:
        nulls = [i for i, r in enumerate(log) if r['loss'] is None]
        first = nulls[0] if nulls else -1
        records = log[:first] if nulls else log
        loss = np.array([r['loss'] for r in records], dtype=np.float64)
        grad = np.array([r['grad_norm'] for r in records], dtype=np.float64)
        param = np.array([r['param_norm'] for r in records], dtype=np.float64)
        n = len(records)
        improvement, oscillation, spike, growth = 0.0, 0.0, 1.0, 1.0
        if n >= 2:
            w = max(1, n // 5)
            head, tail = loss[:w].mean(), loss[-w:].mean()
            improvement = float((head - tail) / head)
            spike = float(max(grad[t] / np.median(grad[:t]) for t in range(1, n)))
            growth = float(param[-1] / param[0])
        if n >= 3:
            d = np.diff(loss)
            oscillation = float(np.count_nonzero(d[:-1] * d[1:] < 0) / (n - 2))
        return {'first_nonfinite': first, 'improvement': improvement, 'oscillation': oscillation,
                'grad_spike': spike, 'weight_growth': growth}

    def diagnose(self, summary: Dict[str, float]) -> Dict[str, str]:
        rules = [
            (summary['first_nonfinite'] >= 0, 'nan_loss', 'lower_lr_and_clip'),
            (summary['grad_spike'] > 10, 'exploding_gradients', 'clip_gradients'),
            (summary['oscillation'] > 0.5, 'lr_too_high', 'lower_lr'),
            (summary['improvement'] < 0.01, 'plateau', 'check_activations'),
            (summary['weight_growth'] > 2, 'weights_growing', 'increase_weight_decay'),
            (summary['weight_growth'] < 0.5, 'weights_shrinking', 'decrease_weight_decay'),
        ]
        for matched, diagnosis, action in rules:
            if matched:
                return {'diagnosis': diagnosis, 'action': action}
        return {'diagnosis': 'healthy', 'action': 'none'}
