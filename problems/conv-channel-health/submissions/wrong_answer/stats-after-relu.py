# pitfall: stats-after-relu
"""The statistics are taken on the output of the activation after each conv, when there is one."""
import math
from typing import Dict, List

import torch
import torch.nn as nn

ACTIVATIONS = (nn.ReLU, nn.LeakyReLU, nn.Tanh, nn.Sigmoid, nn.GELU, nn.SiLU, nn.ELU, nn.Softplus)


class Solution:
    def conv_report(self, model: nn.Module, x: torch.Tensor) -> List[Dict[str, float]]:
        layers = list(model.children())
        report = []
        with torch.no_grad():
            for i, layer in enumerate(layers):
                x = layer(x)
                if not isinstance(layer, nn.Conv2d):
                    continue
                out = x
                if i + 1 < len(layers) and isinstance(layers[i + 1], ACTIVATIONS):
                    out = layers[i + 1](x)
                w = layer.weight
                fan_in = w.shape[1] * w.shape[2] * w.shape[3]
                weight_std = w.std().item()
                dead = (out <= 0).all(dim=3).all(dim=2).all(dim=0)
                report.append({
                    "fan_in": fan_in,
                    "weight_std": round(weight_std, 4),
                    "init_ratio": round(weight_std / (math.sqrt(2) / math.sqrt(fan_in)), 4),
                    "out_mean": round(out.mean().item(), 4),
                    "out_std": round(out.std().item(), 4),
                    "dead_channels": round(dead.float().mean().item(), 4),
                })
        return report

    def diagnose_conv(self, report: List[Dict[str, float]]) -> str:
        if any(r["dead_channels"] > 0.5 for r in report):
            return 'dead_channels'
        if any(r["init_ratio"] > 2 or r["init_ratio"] < 0.5 for r in report):
            return 'bad_init'
        return 'healthy'
