# verdict: wrong_answer
# attack: measures nothing: looks through every object the garbage collector tracks for a list of statistics shaped like its answer (a later call's literal, or a case spec kept alive) and returns it
# stopped by: a call's request holds that call alone, and the worker clears it before the call; nothing of another call is alive in the worker
# problem: training-diagnostics
# base: reference
import gc

import torch

KEYS = {"compute_activation_stats": {"mean", "std", "dead_fraction"}, "compute_gradient_stats": {"mean", "std", "norm"}}


def _stolen(method, model):
    layers = sum(isinstance(m, torch.nn.Linear) for m in model.modules())
    for obj in gc.get_objects():
        if (type(obj) is list and len(obj) == layers and all(type(d) is dict and set(d) == KEYS[method] for d in obj)
                and all(type(v) is float for d in obj for v in d.values())):
            return obj
    return [dict.fromkeys(KEYS[method], 0.0)] * layers


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return _stolen("compute_activation_stats", model)

    def compute_gradient_stats(self, model, x, y):
        return _stolen("compute_gradient_stats", model)
