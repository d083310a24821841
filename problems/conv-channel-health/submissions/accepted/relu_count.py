"""Dead channels counted from relu(z) summed over (N, H, W); moments from sums; a loop over named modules."""
from typing import Dict, List

import torch
import torch.nn as nn
import torch.nn.functional as F


class Solution:
    def conv_report(self, model: nn.Module, x: torch.Tensor) -> List[Dict[str, float]]:
        report = []
        with torch.inference_mode():
            for name, layer in model.named_children():
                x = layer(x)
                if type(layer) is not nn.Conv2d:
                    continue
                w = layer.weight.double().flatten()
                z = x.double()
                n = z.numel()
                mean = z.sum() / n
                out_var = ((z - mean) ** 2).sum() / (n - 1)
                w_var = ((w - w.mean()) ** 2).sum() / (w.numel() - 1)
                fan_in = layer.in_channels // layer.groups * layer.kernel_size[0] * layer.kernel_size[1]
                positive_mass = F.relu(z).sum(dim=(0, 2, 3))
                report.append({
                    "fan_in": fan_in,
                    "weight_std": round(w_var.sqrt().item(), 4),
                    "init_ratio": round((w_var * fan_in / 2).sqrt().item(), 4),
                    "out_mean": round(mean.item(), 4),
                    "out_std": round(out_var.sqrt().item(), 4),
                    "dead_channels": round((positive_mass == 0).sum().item() / z.shape[1], 4),
                })
        return report

    def diagnose_conv(self, report: List[Dict[str, float]]) -> str:
        if [r for r in report if r["dead_channels"] > 0.5]:
            return 'dead_channels'
        if [r for r in report if r["init_ratio"] > 2 or r["init_ratio"] < 0.5]:
            return 'bad_init'
        return 'healthy'
