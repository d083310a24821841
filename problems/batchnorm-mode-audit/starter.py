from typing import Dict, List

import torch
import torch.nn as nn


class Solution:
    def train_eval_gap(self, model: nn.Module, x: torch.Tensor) -> Dict[str, float]:
        """model(x) in eval mode (the running statistics it arrived with) and in train mode (batch statistics).

        Return {"max_abs_gap": max |out_train - out_eval|, "mean_abs_gap": mean |out_train - out_eval|}.
        A train-mode forward updates the running statistics: measure eval first, or restore them.
        """
        raise NotImplementedError

    def running_stats_after(self, model: nn.Module, x: torch.Tensor, steps: int) -> List[Dict[str, List[float]]]:
        """Run `steps` train-mode forwards on x (no optimizer); for every nn.BatchNorm1d in model.modules() order
        return {"running_mean": [...], "running_var": [...]}, rounded to 4 decimals."""
        raise NotImplementedError

    def placement(self, model: nn.Module) -> List[str]:
        """For every nn.BatchNorm1d child (model.children() order): 'after_activation', 'before_activation' or 'other'."""
        raise NotImplementedError

    def diagnose_bn(self, gap: Dict[str, float], placement: List[str], batch_size: int) -> str:
        """Return 'batch_too_small', 'stale_running_stats', 'bn_after_activation' or 'healthy' by the rules, in order."""
        raise NotImplementedError
