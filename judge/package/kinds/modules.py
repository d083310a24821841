"""Judge-built containers whose forward is not a chain: residual blocks and branched models.

They live in the package layer because the worker builds them; a learner sees ordinary ``nn.Module``\\ s with
PyTorch's qualified parameter names (``res1.body.0.weight``, ``heads.aux.0.weight``). A branched model's wiring
(which head is detached, gated or unused: what ``disconnected-parameters`` asks for) shows nowhere on it: not in
its ``repr``, its attributes or its routes' values; only in which code each route is (:func:`route`).
"""

from __future__ import annotations

from typing import Callable, ClassVar

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


Route = Callable[[nn.Module, torch.Tensor], "torch.Tensor | None"]

ROUTES: dict[tuple[bool, bool], Route] = {
    (False, False): lambda head, h: head(h),
    (True, False): lambda head, h: head(h.detach()),
    (False, True): lambda head, h: head(h).detach(),
    (True, True): lambda head, h: head(h.detach()).detach(),
}
"""how a head's output is made from ``h``, by (input detached, output detached)"""
GATED: dict[tuple[bool, bool], Route] = {
    (False, False): lambda head, h: 0.0 * head(h),
    (True, False): lambda head, h: 0.0 * head(h.detach()),
    (False, True): lambda head, h: 0.0 * head(h).detach(),
    (True, True): lambda head, h: 0.0 * head(h.detach()).detach(),
}
"""the same, gated by a zero scale"""
UNUSED: Route = lambda head, h: None  # noqa: E731 -- one of the routes, nameless like the others


def route(detach_input: bool, detach_output: bool, scale: float, used: bool) -> Route:
    """A head's route: what it adds to the output (None: nothing). The wiring that decides an answer by itself
    (detached, gated, unused) is which code the route is, never a value it holds; a non-zero scale, which
    decides none, is the one number a route may hold."""
    if not used:
        return UNUSED
    if scale == 0.0:
        return GATED[detach_input, detach_output]
    base = ROUTES[detach_input, detach_output]
    return base if scale == 1.0 else lambda head, h: scale * base(head, h)


class Branched(nn.Module):
    """``h = trunk(x)``; the output is the sum over used heads of ``scale · head(h)``, detached where wired so."""

    sealed: ClassVar[tuple[str, ...]] = ("_routes",)

    def __init__(self, trunk: nn.Module, heads: dict[str, nn.Module], routes: dict[str, Route]):
        super().__init__()
        self.trunk = trunk
        self.heads = nn.ModuleDict(heads)
        self._routes = routes

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.trunk(x)
        outputs = [self._routes[name](head, h) for name, head in self.heads.items()]
        total = None
        for out in outputs:
            if out is not None:
                total = out if total is None else total + out
        return total


def route_trace(routed: Route) -> tuple[float | None, ...]:
    """What a route does to a probe, for the build checksum: its output and the gradients that reach ``h`` and
    the head's parameter ``p`` (None: none), through a head that computes ``3h + p``."""
    h, p = (torch.full((1,), v, dtype=torch.float64, requires_grad=True) for v in (2.0, 1.0))
    out = routed(lambda t: 3.0 * t + p, h)
    if out is None:
        return None, None, None
    grads = torch.autograd.grad(out.sum(), (h, p), allow_unused=True) if out.requires_grad else (None, None)
    return out.item(), *(None if g is None else g.item() for g in grads)
