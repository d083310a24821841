from typing import Dict

import torch
import torch.nn as nn


class Solution:
    def logit_stats(self, model: nn.Module, x: torch.Tensor) -> Dict[str, float]:
        """Run model(x) without tracking gradients; the output z ([N, K]) is the logits.

        With p_i = softmax(z_i) over each sample's K logits and entropy in nats:
          'mean_entropy'  -- mean over samples of H_i = -sum_k p_ik ln p_ik  (0 ln 0 = 0)
          'entropy_ratio' -- mean_entropy / ln K
          'mean_max_prob' -- mean over samples of max_k p_ik
          'mean_spread'   -- mean over samples of max_k z_ik - min_k z_ik
          'max_spread'    -- the largest of those spreads
          'logit_var'     -- mean over samples of the variance of z_i across its K logits
                             (unbiased: divide by K - 1)
        Each value rounded to 4 decimals.
        """
        raise NotImplementedError

    def diagnose_logits(self, stats: Dict[str, float]) -> str:
        """Return 'saturated', 'high_variance', 'overconfident', 'output_scale_too_large' or 'healthy'.

        Check the rules in the priority order given in the problem description.
        """
        raise NotImplementedError
