"""loss-scale-overflow: the reference agrees with PyTorch's own mixed-precision primitives on every case.

``scaler_trace`` is replayed step by step with ``torch._amp_update_scale_``, the kernel ``GradScaler.update`` runs
(float32 scale, int32 growth tracker): the scale the reference records for step t must be the scale before the
kernel's t-th update, and its final scale the scale after the last one. ``unscale_check`` is compared with
``torch._amp_foreach_non_finite_check_and_unscale_`` run on one parameter at a time (it flags a gradient with
any inf or NaN, which GradScaler then treats as an overflow) and with ``torch.nn.utils.get_total_norm`` and
``torch.linalg.vector_norm`` over the finite unscaled gradients.
"""

from __future__ import annotations

import pytest
import torch

from judge.author.reference import load_reference
from judge.package.build import build_objects, resolve_args
from judge.package.problem import find_problem

SLUG = "loss-scale-overflow"


def _reference():
    return load_reference(find_problem(SLUG)).Solution()


def _calls(method):
    found = []
    for case in find_problem(SLUG).cases:
        for index, call in enumerate(case.calls):
            if call["method"] == method:
                found.append(pytest.param(case, index, id=f"{case.id}:{index}"))
    return found


def _args(case, index):
    return resolve_args(case.calls[index]["args"], build_objects(case.objects))


@pytest.mark.parametrize("case, index", _calls("scaler_trace"))
def test_scaler_trace_matches_amp_update_scale(case, index):
    found_inf, init_scale, growth_factor, backoff_factor, growth_interval = _args(case, index)
    got = _reference().scaler_trace(found_inf, init_scale, growth_factor, backoff_factor, growth_interval)
    scale = torch.full((1,), init_scale, dtype=torch.float32)
    tracker = torch.zeros((1,), dtype=torch.int32)
    scales = []
    for flag in found_inf:
        scales.append(scale.item())
        torch._amp_update_scale_(scale, tracker, torch.full((1,), float(flag)), growth_factor, backoff_factor,
                                 growth_interval)
    rounding = 5e-5  # the reference rounds scales to 4 decimals: a scale of about 4 (hidden/25, 26) moves by 1e-5
    assert got["scales"] == pytest.approx(scales, rel=1e-6, abs=rounding)
    assert got["final_scale"] == pytest.approx(scale.item(), rel=1e-6, abs=rounding)
    assert (got["skipped"], got["applied"]) == (sum(map(bool, found_inf)), len(found_inf) - sum(map(bool, found_inf)))
    assert max([init_scale, *scales, scale.item()]) <= 2.0 ** 19  # R1 keeps scales below 1e6


@pytest.mark.parametrize("case, index", _calls("unscale_check"))
def test_unscale_check_matches_the_amp_unscale_kernel_and_get_total_norm(case, index):
    model, scale = _args(case, index)
    got = _reference().unscale_check(model, scale)
    model, scale = _args(case, index)
    inv_scale = torch.full((1,), 1.0 / scale)
    flagged, finite = [], []
    for name, p in model.named_parameters():
        if p.grad is None:
            continue
        found = torch.zeros((1,))
        torch._amp_foreach_non_finite_check_and_unscale_([p.grad], found, inv_scale)
        (flagged if found.item() else finite).append((name, p.grad))
    assert got["nonfinite"] == [name for name, _ in flagged]
    assert got["action"] == ("skip_step" if flagged else "step")
    grads = [g for _, g in finite]
    total = torch.nn.utils.get_total_norm(grads, norm_type=2.0).item() if grads else 0.0
    assert got["unscaled_norm"] == pytest.approx(total, abs=1e-4, rel=1e-4)
    if grads:
        stacked = torch.linalg.vector_norm(torch.cat([g.double().flatten() for g in grads]))
        assert got["unscaled_norm"] == pytest.approx(stacked.item(), abs=1e-4, rel=1e-4)
        assert got["unscaled_norm"] >= 0.01  # a linear output is never weakly compared
