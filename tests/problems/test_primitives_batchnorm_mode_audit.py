"""batchnorm-mode-audit: the reference agrees with PyTorch's own BatchNorm on every case that measures a model.

``torch.nn.functional.batch_norm`` is run child by child, in both modes, on copies of each layer's buffers:
``training=True, momentum=m`` updates them as PyTorch does, so ``steps`` calls give the running statistics;
``training=False`` normalises with the buffers the model arrived with, so the two outputs give the gap. The update
rule itself (the unbiased batch variance in ``running_var``) is checked against an ``nn.BatchNorm1d`` in train mode.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from judge.author.reference import load_reference
from judge.package.build import build_objects, resolve_args
from judge.package.problem import find_problem

PROBLEM = find_problem("batchnorm-mode-audit")
MEASURING = [(case, call) for case in PROBLEM.cases for call in case.calls
             if call["method"] in ("train_eval_gap", "running_stats_after")]


def _reference():
    return load_reference(PROBLEM).Solution()


def _functional(model: nn.Module, x: torch.Tensor, training: bool, steps: int = 1):
    """The model's output (after the last step) and each BatchNorm's buffers, by ``F.batch_norm``."""
    buffers = {bn: (bn.running_mean.clone(), bn.running_var.clone())
               for bn in model.children() if isinstance(bn, nn.BatchNorm1d)}
    out = x
    with torch.no_grad():
        for _ in range(steps):
            h = x
            for child in model.children():
                if isinstance(child, nn.BatchNorm1d):
                    mean, var = buffers[child]
                    h = F.batch_norm(h, mean, var, child.weight, child.bias, training=training,
                                     momentum=child.momentum, eps=child.eps)
                else:
                    h = child(h)
            out = h
    return out, list(buffers.values())


def _close(got: float, want: float) -> bool:
    return abs(got - want) <= 1e-4 * max(1.0, abs(want)) + 1e-9


def _objects(case, call):
    model, x, *rest = resolve_args(call["args"], build_objects(case.objects))
    return model.double(), x.double(), rest


def test_cases_measure_models():
    assert {call["method"] for _, call in MEASURING} == {"train_eval_gap", "running_stats_after"}


@pytest.mark.parametrize("case,call", MEASURING, ids=[f"{c.name}-{call['method']}" for c, call in MEASURING])
def test_reference_matches_functional_batch_norm(case, call):
    model, x, rest = _objects(case, call)
    got = getattr(_reference(), call["method"])(model, x, *rest)
    model, x, rest = _objects(case, call)
    if call["method"] == "train_eval_gap":
        out_train, _ = _functional(model, x, True)
        out_eval, _ = _functional(model, x, False)
        gap = (out_train - out_eval).abs()
        assert _close(got["max_abs_gap"], gap.max().item()) and _close(got["mean_abs_gap"], gap.mean().item())
    else:
        (steps,) = rest
        _, buffers = _functional(model, x, True, steps)
        assert len(got) == len(buffers)
        for layer, (mean, var) in zip(got, buffers):
            assert list(layer) == ["running_mean", "running_var"]
            assert all(map(_close, layer["running_mean"], mean.tolist()))
            assert all(map(_close, layer["running_var"], var.tolist()))


@pytest.mark.parametrize("case,call", [m for m in MEASURING if m[1]["method"] == "running_stats_after"],
                         ids=lambda v: getattr(v, "name", None) or v["method"])
def test_update_rule_is_pytorchs_with_the_unbiased_variance(case, call):
    """One train-mode step of a fresh nn.BatchNorm1d, fed each layer's input, is the rule the statement gives."""
    model, x, _ = _objects(case, call)
    inputs = []
    hooks = [bn.register_forward_pre_hook(lambda m, i: inputs.append(i[0]))
             for bn in model.modules() if isinstance(bn, nn.BatchNorm1d)]
    with torch.no_grad():
        model.train()(x)
    for h in hooks:
        h.remove()
    model, _, _ = _objects(case, call)  # the buffers as the model arrived
    layers = [m for m in model.modules() if isinstance(m, nn.BatchNorm1d)]
    assert len(inputs) == len(layers)
    for arrived, z in zip(layers, inputs):
        m = arrived.momentum
        fresh = nn.BatchNorm1d(arrived.num_features, eps=arrived.eps, momentum=m).double().train()
        fresh.running_mean.copy_(arrived.running_mean)
        fresh.running_var.copy_(arrived.running_var)
        with torch.no_grad():
            fresh(z)
        torch.testing.assert_close(fresh.running_mean, (1 - m) * arrived.running_mean + m * z.mean(0))
        torch.testing.assert_close(fresh.running_var, (1 - m) * arrived.running_var + m * z.var(0, unbiased=True))
        assert not torch.allclose(fresh.running_var, (1 - m) * arrived.running_var + m * z.var(0, unbiased=False))
