# pitfall: ratio-threshold-ge
import math
from typing import Dict

import torch
import torch.nn as nn


def _r(value: float) -> float:
    return round(value, 4)


class Solution:
    def logit_stats(self, model: nn.Module, x: torch.Tensor) -> Dict[str, float]:
        with torch.no_grad():
            z = model(x)
        log_p = torch.log_softmax(z, dim=1)
        p = log_p.exp()
        entropy = -(p * log_p).sum(dim=1)  # p * log_p, never p * p.log(): an underflowed p gives 0, not NaN
        spread = z.max(dim=1).values - z.min(dim=1).values
        mean_entropy = entropy.mean().item()
        return {
            'mean_entropy': _r(mean_entropy),
            'entropy_ratio': _r(mean_entropy / math.log(z.shape[1])),
            'mean_max_prob': _r(p.max(dim=1).values.mean().item()),
            'mean_spread': _r(spread.mean().item()),
            'max_spread': _r(spread.max().item()),
            'logit_var': _r(z.var(dim=1).mean().item()),
        }

    def diagnose_logits(self, stats: Dict[str, float]) -> str:
        if stats['max_spread'] > 50:
            return 'saturated'
        if stats['logit_var'] > 100:
            return 'high_variance'
        if stats['entropy_ratio'] <= 0.5:
            return 'overconfident'
        if stats['entropy_ratio'] < 0.9:
            return 'output_scale_too_large'
        return 'healthy'
