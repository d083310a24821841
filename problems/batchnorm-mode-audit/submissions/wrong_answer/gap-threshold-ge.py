# pitfall: gap-threshold-ge
"""Wrong: a max_abs_gap of exactly 1.0 counts as stale."""
from typing import Dict, List

import torch
import torch.nn as nn

ACTIVATIONS = (nn.ReLU, nn.LeakyReLU, nn.Sigmoid, nn.Tanh, nn.GELU, nn.SiLU, nn.Softplus, nn.ELU)


def _bn_layers(model: nn.Module) -> List[nn.BatchNorm1d]:
    return [m for m in model.modules() if isinstance(m, nn.BatchNorm1d)]


class Solution:
    def train_eval_gap(self, model: nn.Module, x: torch.Tensor) -> Dict[str, float]:
        with torch.no_grad():
            out_eval = model.eval()(x)    # first: the running statistics the model arrived with
            out_train = model.train()(x)  # batch statistics (this forward updates the buffers)
        gap = (out_train - out_eval).abs()
        return {"max_abs_gap": round(gap.max().item(), 4), "mean_abs_gap": round(gap.mean().item(), 4)}

    def running_stats_after(self, model: nn.Module, x: torch.Tensor, steps: int) -> List[Dict[str, List[float]]]:
        model.train()
        with torch.no_grad():
            for _ in range(steps):
                model(x)
        return [{"running_mean": [round(v, 4) for v in bn.running_mean.tolist()],
                 "running_var": [round(v, 4) for v in bn.running_var.tolist()]} for bn in _bn_layers(model)]

    def placement(self, model: nn.Module) -> List[str]:
        children = list(model.children())
        found = []
        for i, child in enumerate(children):
            if not isinstance(child, nn.BatchNorm1d):
                continue
            before = children[i - 1] if i > 0 else None
            after = children[i + 1] if i + 1 < len(children) else None
            if isinstance(before, ACTIVATIONS):
                found.append('after_activation')
            elif isinstance(after, ACTIVATIONS):
                found.append('before_activation')
            else:
                found.append('other')
        return found

    def diagnose_bn(self, gap: Dict[str, float], placement: List[str], batch_size: int) -> str:
        if batch_size < 2:
            return 'batch_too_small'
        if gap["max_abs_gap"] >= 1.0:
            return 'stale_running_stats'
        if 'after_activation' in placement:
            return 'bn_after_activation'
        return 'healthy'
