# variant: float64 torch tensors, torch.quantile(0.5) (interpolates between the two middle values), torch.diff
from typing import Dict, List, Optional

import torch


class Solution:
    def summarize(self, log: List[Dict[str, Optional[float]]]) -> Dict[str, float]:
        first = -1
        for i, record in enumerate(log):
            if record['loss'] is None:
                first = i
                break
        records = log if first == -1 else log[:first]
        n = len(records)
        out = {'first_nonfinite': first, 'improvement': 0.0, 'oscillation': 0.0, 'grad_spike': 1.0,
               'weight_growth': 1.0}
        if n < 2:
            return out
        table = torch.tensor([[r['loss'], r['grad_norm'], r['param_norm']] for r in records], dtype=torch.float64)
        loss, grad, param = table.unbind(dim=1)
        w = max(1, n // 5)
        head = loss[:w].mean()
        out['improvement'] = ((head - loss[-w:].mean()) / head).item()
        ratios = torch.stack([grad[t] / torch.quantile(grad[:t], 0.5) for t in range(1, n)])
        out['grad_spike'] = ratios.max().item()
        out['weight_growth'] = (param[-1] / param[0]).item()
        if n >= 3:
            d = torch.diff(loss)
            out['oscillation'] = ((d[:-1] * d[1:]) < 0).sum().item() / (n - 2)
        return out

    def diagnose(self, summary: Dict[str, float]) -> Dict[str, str]:
        checks = (
            ('nan_loss', 'lower_lr_and_clip', lambda s: s['first_nonfinite'] >= 0),
            ('exploding_gradients', 'clip_gradients', lambda s: s['grad_spike'] > 10),
            ('lr_too_high', 'lower_lr', lambda s: s['oscillation'] > 0.5),
            ('plateau', 'check_activations', lambda s: s['improvement'] < 0.01),
            ('weights_growing', 'increase_weight_decay', lambda s: s['weight_growth'] > 2),
            ('weights_shrinking', 'decrease_weight_decay', lambda s: s['weight_growth'] < 0.5),
        )
        diagnosis, action = next(((d, a) for d, a, test in checks if test(summary)), ('healthy', 'none'))
        return {'diagnosis': diagnosis, 'action': action}
