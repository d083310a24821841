# variant: torch.distributions.Categorical for the entropy, aminmax for the spread, a hook on the model's output
import math
from typing import Dict

import torch
import torch.nn as nn
from torch.distributions import Categorical


class Solution:
    def logit_stats(self, model: nn.Module, x: torch.Tensor) -> Dict[str, float]:
        captured = []
        handle = model.register_forward_hook(lambda module, inputs, output: captured.append(output.detach()))
        try:
            with torch.inference_mode():
                model(x)
        finally:
            handle.remove()
        z = captured[0]
        dist = Categorical(logits=z)
        entropy = dist.entropy()
        low, high = torch.aminmax(z, dim=1)
        spread = high - low
        return {
            'mean_entropy': round(entropy.mean().item(), 4),
            'entropy_ratio': round(entropy.mean().item() / math.log(z.size(1)), 4),
            'mean_max_prob': round(dist.probs.max(dim=1).values.mean().item(), 4),
            'mean_spread': round(spread.mean().item(), 4),
            'max_spread': round(spread.max().item(), 4),
            'logit_var': round(torch.var(z, dim=1, correction=1).mean().item(), 4),
        }

    def diagnose_logits(self, stats: Dict[str, float]) -> str:
        if stats['max_spread'] > 50:
            return 'saturated'
        if stats['logit_var'] > 100:
            return 'high_variance'
        ratio = stats['entropy_ratio']
        return 'overconfident' if ratio < 0.5 else 'output_scale_too_large' if ratio < 0.9 else 'healthy'
