"""Forward hooks on every Conv2d, the model called as a whole, float64 statistics, unrounded."""
from typing import Dict, List

import torch
import torch.nn as nn


class Solution:
    def conv_report(self, model: nn.Module, x: torch.Tensor) -> List[Dict[str, float]]:
        convs = [m for m in model.children() if isinstance(m, nn.Conv2d)]
        outputs = {}
        handles = [m.register_forward_hook(lambda mod, inp, out: outputs.__setitem__(mod, out.detach()))
                   for m in convs]
        try:
            with torch.no_grad():
                model(x)
        finally:
            for h in handles:
                h.remove()
        report = []
        for conv in convs:
            w = conv.weight.detach().double()
            z = outputs[conv].double()
            fan_in, _ = nn.init._calculate_fan_in_and_fan_out(w)
            std = w.std().item()
            best = z.transpose(0, 1).reshape(z.shape[1], -1).max(dim=1).values
            report.append({
                "fan_in": int(fan_in),
                "weight_std": std,
                "init_ratio": std * (fan_in / 2) ** 0.5,
                "out_mean": z.mean().item(),
                "out_std": z.std().item(),
                "dead_channels": (best <= 0).double().mean().item(),
            })
        return report

    def diagnose_conv(self, report: List[Dict[str, float]]) -> str:
        ratios = [r["init_ratio"] for r in report]
        if any(r["dead_channels"] > 0.5 for r in report):
            return 'dead_channels'
        if ratios and (max(ratios) > 2 or min(ratios) < 0.5):
            return 'bad_init'
        return 'healthy'
