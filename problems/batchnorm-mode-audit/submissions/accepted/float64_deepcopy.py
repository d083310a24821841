"""Accepted: every measurement on float64 deep copies of the model, nothing rounded.

Two copies make the eval/train order irrelevant: the train-mode copy may update its buffers freely.
"""
import copy
from typing import Dict, List

import torch
import torch.nn as nn

ACTS = (nn.ReLU, nn.LeakyReLU, nn.Sigmoid, nn.Tanh, nn.GELU, nn.SiLU, nn.Softplus, nn.ELU)


class Solution:
    def train_eval_gap(self, model: nn.Module, x: torch.Tensor) -> Dict[str, float]:
        x = x.double()
        train_copy = copy.deepcopy(model).double().train()
        eval_copy = copy.deepcopy(model).double().eval()
        with torch.no_grad():
            diff = (train_copy(x) - eval_copy(x)).abs()
        return {"max_abs_gap": diff.max().item(), "mean_abs_gap": diff.mean().item()}

    def running_stats_after(self, model: nn.Module, x: torch.Tensor, steps: int) -> List[Dict[str, List[float]]]:
        work = copy.deepcopy(model).double().train()
        x = x.double()
        with torch.no_grad():
            for _ in range(steps):
                work(x)
        return [{"running_mean": m.running_mean.tolist(), "running_var": m.running_var.tolist()}
                for m in work.modules() if isinstance(m, nn.BatchNorm1d)]

    def placement(self, model: nn.Module) -> List[str]:
        kids = [None, *model.children(), None]
        out = []
        for prev, cur, nxt in zip(kids, kids[1:], kids[2:]):
            if isinstance(cur, nn.BatchNorm1d):
                out.append('after_activation' if isinstance(prev, ACTS)
                           else 'before_activation' if isinstance(nxt, ACTS) else 'other')
        return out

    def diagnose_bn(self, gap: Dict[str, float], placement: List[str], batch_size: int) -> str:
        rules = [(batch_size < 2, 'batch_too_small'), (gap["max_abs_gap"] > 1.0, 'stale_running_stats'),
                 (any(p == 'after_activation' for p in placement), 'bn_after_activation')]
        return next((verdict for hit, verdict in rules if hit), 'healthy')
