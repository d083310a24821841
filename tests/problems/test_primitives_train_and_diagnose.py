"""train-and-diagnose: the reference agrees with torch.optim and clip_grad_norm_ themselves, and its stop rule is the
problem statement's.

An independent loop here builds the optimizer with ``torch.optim``, clips with ``torch.nn.utils.clip_grad_norm_``
(whose return value is the norm before clipping) and sets the warmup with ``LambdaLR``; on every sample case that
trains, it gives the reference's trajectory. The stop rule is checked on the loss at the start of a step: the loss
that fires it is not recorded and ``final_loss`` is the last recorded one, while a run that completes all its steps
is not stopped even when its final loss is above 1e4.
"""

from __future__ import annotations

import copy
import math

import pytest
import torch
import torch.nn as nn

from judge.author.reference import load_reference
from judge.package.build import build_objects, resolve_args
from judge.package.problem import find_problem

PROBLEM = find_problem("train-and-diagnose")
SAMPLE_RUNS = [(case, call) for case in PROBLEM.samples for call in case.calls if call["method"] != "diagnose_run"]
MAX_LOSS = 1e4


def _reference():
    return load_reference(PROBLEM).Solution()


def _case(name: str):
    return next(c for c in PROBLEM.cases if c.id == name)


def _args(case, call):
    """The call's arguments, built as the judge builds them, in float64 (as judge gen computes expectations)."""
    args = resolve_args(call["args"], build_objects(case.objects))
    return [a.double() if isinstance(a, nn.Module) or (torch.is_tensor(a) and a.is_floating_point()) else a
            for a in args]


def _torch_loop(model, x, labels, optimizer, steps, clip, warmup):
    """The trajectory by torch's own pieces; also the loss that stopped the run (or None)."""
    kwargs = {k: (tuple(v) if k == "betas" else v) for k, v in optimizer.items() if k != "name"}
    opt = {"sgd": torch.optim.SGD, "adam": torch.optim.Adam, "adamw": torch.optim.AdamW}[optimizer["name"]](
        model.parameters(), **kwargs)
    schedule = torch.optim.lr_scheduler.LambdaLR(opt, lambda t: min(1.0, (t + 1) / warmup))
    out = {"loss": [], "grad_norm": [], "lr": [], "param_norm": []}
    for t in range(steps):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), labels)
        if not math.isfinite(loss.item()) or loss.item() > MAX_LOSS:
            return {**out, "final_loss": out["loss"][-1], "stopped_at": t}, loss.item()
        loss.backward()
        if clip > 0:
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), clip).item()
        else:
            norm = torch.nn.utils.get_total_norm([p.grad for p in model.parameters()]).item()
        out["lr"].append(schedule.get_last_lr()[0])
        opt.step()
        schedule.step()
        out["loss"].append(loss.item())
        out["grad_norm"].append(norm)
        out["param_norm"].append(torch.nn.utils.get_total_norm(list(model.parameters())).item())
    with torch.no_grad():
        final = nn.functional.cross_entropy(model(x), labels).item()
    return {**out, "final_loss": final, "stopped_at": -1}, None


def _close(got, want) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and set(got) == set(want) and all(_close(got[k], want[k]) for k in want)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_close, got, want))
    if isinstance(want, int) and not isinstance(want, bool) and isinstance(got, int):
        return got == want
    return abs(got - want) <= 1e-4 * max(1.0, abs(want)) + 1e-9


def _torch_call(method, args):
    if method == "train":
        model, x, labels, config = args
        return _torch_loop(model, x, labels, config["optimizer"], config["steps"], config["clip_max_norm"],
                           config["warmup_steps"])[0]
    model, x, labels, lrs, steps = args
    finals = []
    for lr in lrs:
        plain = {"name": "sgd", "lr": lr, "momentum": 0.0, "nesterov": False, "weight_decay": 0.0}
        run, _ = _torch_loop(copy.deepcopy(model), x, labels, plain, steps, 0.0, 1)
        finals.append(-1.0 if run["stopped_at"] >= 0 else run["final_loss"])
    best = min((f, lr) for f, lr in zip(finals, lrs) if f != -1.0)
    return {"final_losses": finals, "best_lr": best[1]}


def test_sample_cases_train():
    assert {call["method"] for _, call in SAMPLE_RUNS} == {"train", "lr_range_test"}


@pytest.mark.parametrize("case,call", SAMPLE_RUNS, ids=[f"{c.name}-{i}" for i, (c, _) in enumerate(SAMPLE_RUNS)])
def test_reference_matches_torch_optim_and_clip_grad_norm(case, call):
    got = getattr(_reference(), call["method"])(*_args(case, call))
    want = _torch_call(call["method"], _args(case, call))
    assert _close(got, want)
    stored = case.expected["cpu"]["outputs"][case.calls.index(call)]
    assert _close(got, stored)


def test_clipping_is_active_and_inactive_in_the_first_sample():
    case = _case("sample/01-momentum-clipping-warmup")
    run = case.expected["cpu"]["outputs"][0]
    clip = case.objects["config"]["clip_max_norm"]
    assert any(g > clip for g in run["grad_norm"]) and any(g < clip for g in run["grad_norm"])


def test_the_loss_that_stops_a_run_is_not_recorded():
    case = _case("sample/02-adamw-decay-and-a-diverging-run")
    call = case.calls[1]
    got = _reference().train(*_args(case, call))
    run, trigger = _torch_loop(*_args(case, call)[:3], case.objects["fast"]["optimizer"], case.objects["fast"]["steps"],
                               0.0, 1)
    assert got["stopped_at"] == run["stopped_at"] == len(got["loss"]) > 0
    assert trigger is not None and trigger > MAX_LOSS  # the loss at the start of step stopped_at ...
    assert all(loss <= MAX_LOSS for loss in got["loss"])  # ... is not among the recorded ones
    assert got["final_loss"] == got["loss"][-1]
    assert all(len(got[k]) == got["stopped_at"] for k in ("grad_norm", "lr", "param_norm"))


def test_a_run_that_completes_is_not_stopped_whatever_its_final_loss():
    case = _case("hidden/18-completes-above-max-loss")
    train, range_test = case.calls
    got = _reference().train(*_args(case, train))
    assert got["stopped_at"] == -1 and len(got["loss"]) == case.objects["config"]["steps"]
    assert got["final_loss"] > MAX_LOSS and max(got["loss"]) <= MAX_LOSS
    finals = _reference().lr_range_test(*_args(case, range_test))["final_losses"]
    assert finals[0] > MAX_LOSS  # completed: reported, not the sentinel
    assert finals[0] == pytest.approx(got["final_loss"], rel=1e-6)


def test_a_range_test_run_that_stops_reports_the_sentinel():
    case = _case("sample/01-momentum-clipping-warmup")
    model, x, labels, lrs, steps = _args(case, case.calls[1])
    result = _reference().lr_range_test(model, x, labels, lrs, steps)
    diverging = lrs.index(50.0)
    plain = {"name": "sgd", "lr": 50.0, "momentum": 0.0, "nesterov": False, "weight_decay": 0.0}
    run, trigger = _torch_loop(copy.deepcopy(model), x, labels, plain, steps, 0.0, 1)
    assert run["stopped_at"] >= 1 and trigger > MAX_LOSS
    assert result["final_losses"][diverging] == -1.0 and result["best_lr"] != 50.0
