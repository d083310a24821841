"""epoch-dead-units: the reference agrees with PyTorch's own graph and statistics.

The reference records outputs with forward hooks; here ``torch.fx`` traces the model into its graph (residual
additions included) and an ``Interpreter`` records every module's output as the graph runs, and
``torch.std_mean(correction=1)`` computes the statistics, on every case that measures a model.
"""

from __future__ import annotations

import pytest
import torch
import torch.fx
import torch.nn as nn

from judge.author.reference import load_reference
from judge.package.build import build_objects, resolve_args
from judge.package.problem import find_problem

PROBLEM = find_problem("epoch-dead-units")
MEASURING = [(case, call) for case in PROBLEM.cases for call in case.calls if call["method"] != "advise"]


def _reference():
    return load_reference(PROBLEM).Solution()


class _Recorder(torch.fx.Interpreter):
    """Runs the traced graph and keeps each ``kind`` module's output by its qualified name."""

    def __init__(self, graph_module: torch.fx.GraphModule, kind: type):
        super().__init__(graph_module)
        self.kind, self.outputs = kind, {}

    def call_module(self, target, args, kwargs):
        out = super().call_module(target, args, kwargs)
        if isinstance(self.fetch_attr(target), self.kind):
            self.outputs.setdefault(target, []).append(out)
        return out


def _record(model: nn.Module, inputs, kind: type) -> dict:
    recorder = _Recorder(torch.fx.symbolic_trace(model), kind)
    with torch.no_grad():
        for x in inputs:
            recorder.run(x)
    return recorder.outputs


def _from_graph(method: str, model: nn.Module, data: torch.Tensor) -> dict:
    if method == "epoch_dead":
        return {name: 1.0 - torch.count_nonzero(torch.cat(outs), dim=0).bool().double().mean().item()
                for name, outs in _record(model, data, nn.ReLU).items()}
    stats = {}
    for name, (out,) in _record(model, [data], nn.Linear).items():
        std, mean = torch.std_mean(out.double(), correction=1)
        stats[name] = {"mean": mean.item(), "std": std.item()}
    return stats


def _close(got, want) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and set(got) == set(want) and all(_close(got[k], want[k]) for k in want)
    return abs(got - want) <= 1e-4 * max(1.0, abs(want)) + 1e-9


def test_cases_measure_models():
    assert {call["method"] for _, call in MEASURING} == {"epoch_dead", "linear_stats"}


@pytest.mark.parametrize("case,call", MEASURING, ids=[f"{c.name}-{call['method']}" for c, call in MEASURING])
def test_reference_matches_the_traced_graph(case, call):
    model, data = resolve_args(call["args"], build_objects(case.objects))
    got = getattr(_reference(), call["method"])(model, data)
    assert all(not m._forward_hooks for m in model.modules()), "the reference left hooks behind"
    assert _close(got, _from_graph(call["method"], model, data))
