# pitfall: closed-form-steps-off-by-one
"""Wrong: the closed form uses (1 - m)^(k - 1)."""
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
        seen = {}
        hooks = [bn.register_forward_pre_hook(lambda m, inp: seen.__setitem__(
            m, (m.running_mean.clone(), m.running_var.clone(), inp[0].mean(0), inp[0].var(0)))) for bn in layers]
        with torch.no_grad():
            model.train()(x)
        for h in hooks:
            h.remove()
        result = []
        for bn in layers:
            r_mean, r_var, b_mean, b_var = seen[bn]
            keep = (1 - bn.momentum) ** (steps - 1)
            result.append({"running_mean": [round(v, 4) for v in (keep * r_mean + (1 - keep) * b_mean).tolist()],
                           "running_var": [round(v, 4) for v in (keep * r_var + (1 - keep) * b_var).tolist()]})
        return result

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
