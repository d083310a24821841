from typing import Dict, List

import torch
import torch.nn as nn


class Solution:
    def conv_report(self, model: nn.Module, x: torch.Tensor) -> List[Dict[str, float]]:
        """Run x through model's children in order, without tracking gradients.

        For every nn.Conv2d module return {"fan_in", "weight_std", "init_ratio", "out_mean", "out_std",
        "dead_channels"} (fan_in an int, the other numbers rounded to 4 decimals).
        """
        raise NotImplementedError

    def diagnose_conv(self, report: List[Dict[str, float]]) -> str:
        """Return 'dead_channels', 'bad_init' or 'healthy' by the rules, in order."""
        raise NotImplementedError
