# pitfall: keras-momentum
"""Wrong: r <- m * r + (1 - m) * batch_stat (Keras's convention)."""
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
        layers = _bn_layers(model)
        model.train()
        for _ in range(steps):
            seen = {}
            hooks = [bn.register_forward_pre_hook(lambda m, inp: seen.__setitem__(
                m, (inp[0], m.running_mean.clone(), m.running_var.clone()))) for bn in layers]
            with torch.no_grad():
                model(x)  # the layers' inputs; the buffers are then updated by hand
            for h in hooks:
                h.remove()
            for bn in layers:
                (z, r_mean, r_var), m = seen[bn], bn.momentum
                bn.running_mean.copy_(m * r_mean + (1 - m) * z.mean(0))
                bn.running_var.copy_(m * r_var + (1 - m) * z.var(0, unbiased=True))
        return [{"running_mean": [round(v, 4) for v in bn.running_mean.tolist()],
                 "running_var": [round(v, 4) for v in bn.running_var.tolist()]} for bn in layers]

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
        if gap["max_abs_gap"] > 1.0:
            return 'stale_running_stats'
        if 'after_activation' in placement:
            return 'bn_after_activation'
        return 'healthy'
