# base: reference
import torch.nn as nn


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        stats = []
        with torch.no_grad():
            for layer in model.children():
                x = layer(x)
                if isinstance(layer, nn.Linear):
                    dead = (x <= 0).all(dim=0).float().mean()
                    stats.append({"mean": round(x.mean().item(), 4), "std": round(x.std(correction=0).item(), 4),
                                  "dead_fraction": round(dead.item(), 4)})
        return stats
