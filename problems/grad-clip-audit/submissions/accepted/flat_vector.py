"""Accepted: one flat gradient vector, torch.linalg.vector_norm, clipping applied in place with torch._foreach_mul_."""
from typing import Any, Dict, List

import torch
import torch.nn as nn


class Solution:
    def clip_report(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, max_norm: float) -> Dict[str, Any]:
        model.zero_grad(set_to_none=True)
        nn.functional.mse_loss(model(x), y).backward()
        grads = [p.grad for p in model.parameters() if p.grad is not None]
        total = torch.linalg.vector_norm(torch.cat([g.reshape(-1).double() for g in grads])).item()
        norms = [torch.linalg.vector_norm(g.double()).item() for g in grads]
        coef = min(1.0, max_norm / (total + 1e-6))
        torch._foreach_mul_(grads, coef)
        clipped = [torch.linalg.vector_norm(g.double()).item() for g in grads]
        return {"total_norm": round(total, 4), "clip_coef": round(coef, 4),
                "clipped_total_norm": round(coef * total, 4),
                "param_norms": [round(n, 4) for n in norms], "clipped_param_norms": [round(c, 4) for c in clipped]}

    def clip_per_layer(self, model: nn.Module, x: torch.Tensor, y: torch.Tensor, max_norm: float) -> List[float]:
        model.zero_grad(set_to_none=True)
        nn.functional.mse_loss(model(x), y).backward()
        result = []
        for module in model.modules():
            if type(module) is nn.Linear:
                flat = torch.cat([p.grad.reshape(-1) for p in module.parameters() if p.grad is not None]).double()
                n = torch.linalg.vector_norm(flat).item()
                result.append(round(min(n, n * max_norm / (n + 1e-6)), 4))
        return result

    def advise_threshold(self, total_norms: List[float], max_norm: float) -> str:
        above = sum(1 for n in total_norms if n > max_norm)
        if total_norms and above / len(total_norms) > 0.5:
            return "raise_threshold"
        if total_norms and above == 0 and max(total_norms) < max_norm / 10:
            return "lower_threshold"
        return "keep"
