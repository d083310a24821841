# variant: float64 throughout, torch.special.entr for -p ln p, nothing rounded
import math
from typing import Dict

import torch
import torch.nn as nn


class Solution:
    def logit_stats(self, model: nn.Module, x: torch.Tensor) -> Dict[str, float]:
        with torch.no_grad():
            z = model(x).double()
        p = torch.softmax(z, dim=-1)
        entropy = torch.special.entr(p).sum(dim=-1)
        spread = z.amax(dim=-1) - z.amin(dim=-1)
        centred = z - z.mean(dim=-1, keepdim=True)
        variance = (centred ** 2).sum(dim=-1) / (z.shape[-1] - 1)
        return {
            'mean_entropy': entropy.mean().item(),
            'entropy_ratio': entropy.mean().item() / math.log(z.shape[-1]),
            'mean_max_prob': p.amax(dim=-1).mean().item(),
            'mean_spread': spread.mean().item(),
            'max_spread': spread.max().item(),
            'logit_var': variance.mean().item(),
        }

    def diagnose_logits(self, stats: Dict[str, float]) -> str:
        rules = [
            (stats['max_spread'] > 50, 'saturated'),
            (stats['logit_var'] > 100, 'high_variance'),
            (stats['entropy_ratio'] < 0.5, 'overconfident'),
            (stats['entropy_ratio'] < 0.9, 'output_scale_too_large'),
        ]
        return next((name for matched, name in rules if matched), 'healthy')
