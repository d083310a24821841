from typing import Any, Dict, List

import torch
import torch.nn as nn


class Solution:
    def init_report(self, model: nn.Module) -> List[Dict[str, float]]:
        """For every nn.Linear in model.children(), in order, return a dict with:
          'fan_in', 'fan_out' -- ints, from the weight's shape [out_features, in_features]
          'weight_std'        -- std of the weight entries (unbiased, like torch's w.std())
          'target_std'        -- the std its initialisation should have, chosen by the NEXT child module
          'ratio'             -- weight_std / target_std
        Round floats to 4 decimals (or don't).
        """
        raise NotImplementedError

    def signal_report(self, model: nn.Module, x: torch.Tensor) -> Dict[str, Any]:
        """Run x through model.children() without tracking gradients.

        Return {'stds': [std of each nn.Linear's output, in order], 'growth': (s_L / s_1) ** (1 / (L - 1))},
        with growth = 1.0 when there are fewer than two Linear layers.
        """
        raise NotImplementedError

    def verdict(self, init_report: List[Dict[str, float]], signal: Dict[str, Any]) -> Dict[str, Any]:
        """Return {'layers': ['too_large' | 'too_small' | 'ok' per row], 'signal': 'exploding_signal' |
        'vanishing_signal' | 'stable'} using the thresholds in the problem description.
        """
        raise NotImplementedError
