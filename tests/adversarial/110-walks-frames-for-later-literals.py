# verdict: wrong_answer
# attack: measures nothing: walks the frames below its call for a later call's literal arguments, which in these cases are the reference's own outputs of the earlier calls, and returns them
# stopped by: a call's request holds that call alone (Case.call_request), and the worker clears it before the call
# problem: training-diagnostics
# base: reference
import sys

import torch

KEYS = {"compute_activation_stats": {"mean", "std", "dead_fraction"}, "compute_gradient_stats": {"mean", "std", "norm"}}


def _lists(value, depth=0):
    """Every list of dicts reachable from ``value``."""
    if depth > 12:
        return
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            yield value
        for item in value:
            yield from _lists(item, depth + 1)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _lists(item, depth + 1)


def _stolen(method, model):
    layers = sum(isinstance(m, torch.nn.Linear) for m in model.modules())
    frame = sys._getframe(2)
    while frame is not None:
        for value in list(frame.f_locals.values()):
            for found in _lists(value):
                if len(found) == layers and all(set(d) == KEYS[method] for d in found):
                    return found
        frame = frame.f_back
    return [dict.fromkeys(KEYS[method], 0.0)] * layers


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return _stolen("compute_activation_stats", model)

    def compute_gradient_stats(self, model, x, y):
        return _stolen("compute_gradient_stats", model)
