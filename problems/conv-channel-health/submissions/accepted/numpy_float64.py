"""NumPy statistics in float64 with ddof=1, rounded to 4 decimals."""
import math
from typing import Dict, List

import numpy as np
import torch
import torch.nn as nn


class Solution:
    def conv_report(self, model: nn.Module, x: torch.Tensor) -> List[Dict[str, float]]:
        report = []
        h = x
        with torch.no_grad():
            for layer in model.children():
                h = layer(h)
                if not isinstance(layer, nn.Conv2d):
                    continue
                w = layer.weight.numpy().astype(np.float64)
                z = h.numpy().astype(np.float64)
                c_out, c_in_per_group, kh, kw = w.shape
                fan_in = c_in_per_group * kh * kw
                std = float(np.std(w, ddof=1))
                alive = np.any(z > 0, axis=(0, 2, 3))
                report.append({
                    "fan_in": fan_in,
                    "weight_std": round(std, 4),
                    "init_ratio": round(std / math.sqrt(2.0 / fan_in), 4),
                    "out_mean": round(float(z.mean()), 4),
                    "out_std": round(float(np.std(z, ddof=1)), 4),
                    "dead_channels": round(1.0 - float(alive.sum()) / c_out, 4),
                })
        return report

    def diagnose_conv(self, report: List[Dict[str, float]]) -> str:
        for rule, fires in (('dead_channels', lambda r: r["dead_channels"] > 0.5),
                            ('bad_init', lambda r: not 0.5 <= r["init_ratio"] <= 2)):
            if any(fires(r) for r in report):
                return rule
        return 'healthy'
