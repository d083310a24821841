"""Accepted: the train pass runs first with the buffers saved and restored around it, and the running
statistics come in closed form from one forward's batch statistics.

With no optimizer every train-mode forward on the same x sees the same batch statistics b, so after k steps
r_k = (1 - m)^k r_0 + (1 - (1 - m)^k) b, with the unbiased batch variance for running_var.
"""
from typing import Dict, List

import torch
import torch.nn as nn

ACTIVATION_TYPES = {nn.ReLU, nn.LeakyReLU, nn.Sigmoid, nn.Tanh, nn.GELU, nn.SiLU, nn.Softplus, nn.ELU}


def _bns(model):
    return [m for m in model.modules() if isinstance(m, nn.BatchNorm1d)]


class Solution:
    def train_eval_gap(self, model: nn.Module, x: torch.Tensor) -> Dict[str, float]:
        saved = [(bn, bn.running_mean.clone(), bn.running_var.clone(), bn.num_batches_tracked.clone())
                 for bn in _bns(model)]
        with torch.no_grad():
            model.train()
            out_train = model(x)
            for bn, mean, var, count in saved:
                bn.running_mean.copy_(mean)
                bn.running_var.copy_(var)
                bn.num_batches_tracked.copy_(count)
            model.eval()
            out_eval = model(x)
        d = (out_train - out_eval).abs()
        return {"max_abs_gap": round(float(d.max()), 4), "mean_abs_gap": round(float(d.mean()), 4)}

    def running_stats_after(self, model: nn.Module, x: torch.Tensor, steps: int) -> List[Dict[str, List[float]]]:
        layers = _bns(model)
        seen = {}

        def record(mod, inp):  # runs before the layer's forward: its buffers still hold r_0
            z = inp[0]
            seen[mod] = (mod.running_mean.clone(), mod.running_var.clone(), z.mean(0), z.var(0, unbiased=True))

        hooks = [bn.register_forward_pre_hook(record) for bn in layers]
        try:
            with torch.no_grad():
                model.train()(x)
        finally:
            for h in hooks:
                h.remove()
        result = []
        for bn in layers:
            r_mean, r_var, b_mean, b_var = seen[bn]
            keep = (1.0 - bn.momentum) ** steps
            new_mean = keep * r_mean + (1.0 - keep) * b_mean
            new_var = keep * r_var + (1.0 - keep) * b_var
            result.append({"running_mean": [round(v, 4) for v in new_mean.tolist()],
                           "running_var": [round(v, 4) for v in new_var.tolist()]})
        return result

    def placement(self, model: nn.Module) -> List[str]:
        kids = list(model.children())
        is_act = [type(k) in ACTIVATION_TYPES for k in kids]
        out = []
        for i, k in enumerate(kids):
            if type(k) is nn.BatchNorm1d:
                if i > 0 and is_act[i - 1]:
                    out.append('after_activation')
                elif i + 1 < len(kids) and is_act[i + 1]:
                    out.append('before_activation')
                else:
                    out.append('other')
        return out

    def diagnose_bn(self, gap: Dict[str, float], placement: List[str], batch_size: int) -> str:
        if batch_size <= 1:
            return 'batch_too_small'
        if gap["max_abs_gap"] > 1.0:
            return 'stale_running_stats'
        return 'bn_after_activation' if 'after_activation' in placement else 'healthy'
