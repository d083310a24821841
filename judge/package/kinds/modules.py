"""Judge-built containers whose forward is not a chain: residual blocks and branched models.

They live in the package layer because the worker builds them; a learner sees ordinary ``nn.Module``\\ s with
PyTorch's qualified parameter names (``res1.body.0.weight``, ``heads.aux.0.weight``).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn


class Residual(nn.Module):
    """``x + body(x)``."""

    def __init__(self, body: nn.Module):
        super().__init__()
        self.body = body

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.body(x)

    def extra_repr(self) -> str:
        return "x + body(x)"


@dataclass(frozen=True)
class Wiring:
    """How one head of a :class:`Branched` model joins the output."""

    detach_input: bool = False
    """the head sees ``h.detach()``: no gradient reaches the trunk through it"""
    detach_output: bool = False
    """the head's output is detached: its own parameters get no gradient"""
    scale: float = 1.0
    """the head's output is multiplied by this (0.0: a zero gate, exact zero gradients)"""
    used: bool = True
    """an unused head is built but never called"""


class Branched(nn.Module):
    """``h = trunk(x)``; the output is the sum over used heads of ``scale · head(h)``, detached where wired so."""

    def __init__(self, trunk: nn.Module, heads: dict[str, nn.Module], wiring: dict[str, Wiring]):
        super().__init__()
        self.trunk = trunk
        self.heads = nn.ModuleDict(heads)
        self.wiring = wiring

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.trunk(x)
        total = None
        for name, head in self.heads.items():
            wire = self.wiring[name]
            if not wire.used:
                continue
            out = head(h.detach() if wire.detach_input else h)
            if wire.detach_output:
                out = out.detach()
            if wire.scale != 1.0:
                out = wire.scale * out
            total = out if total is None else total + out
        return total

    def extra_repr(self) -> str:
        return ", ".join(f"{name}: {wire}" for name, wire in self.wiring.items())
