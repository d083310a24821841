# variant: NumPy in float64, a hand-written log-sum-exp
from typing import Dict

import numpy as np
import torch
import torch.nn as nn


class Solution:
    def logit_stats(self, model: nn.Module, x: torch.Tensor) -> Dict[str, float]:
        with torch.no_grad():
            z = model(x).cpu().numpy().astype(np.float64)
        shifted = z - z.max(axis=1, keepdims=True)
        log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        p = np.exp(log_p)
        entropy = -(p * log_p).sum(axis=1)
        spread = np.ptp(z, axis=1)
        k = z.shape[1]
        return {
            'mean_entropy': round(float(entropy.mean()), 4),
            'entropy_ratio': round(float(entropy.mean() / np.log(k)), 4),
            'mean_max_prob': round(float(p.max(axis=1).mean()), 4),
            'mean_spread': round(float(spread.mean()), 4),
            'max_spread': round(float(spread.max()), 4),
            'logit_var': round(float(z.var(axis=1, ddof=1).mean()), 4),
        }

    def diagnose_logits(self, stats: Dict[str, float]) -> str:
        if stats['max_spread'] > 50:
            return 'saturated'
        elif stats['logit_var'] > 100:
            return 'high_variance'
        elif stats['entropy_ratio'] < 0.5:
            return 'overconfident'
        elif stats['entropy_ratio'] < 0.9:
            return 'output_scale_too_large'
        else:
            return 'healthy'
