"""What a worker is sent and what the objects it builds show: a call sees only what it needs.

* A worker that imports a submission is never sent a case: checksums come from a checker that imports none, and
  each call's request holds that call's method, arguments and objects, nothing of another call.
* The settings that decide an answer by themselves (a custom layer's bug, a branched head's wiring) travel as
  hidden numbers, never as text, and the worker wipes them once read.
* A judge-built object shows the same, through every ordinary way of looking at it, whatever those settings are.
"""

from __future__ import annotations

import io
import json
import re
import struct
from typing import Any

import pytest
import torch

from judge.judging.session import CaseLimits, Session, judge_cases
from judge.package import kinds
from judge.package.build import build_objects, checksum
from judge.package.problem import available, find_problem, load_problem
from judge.worker import probe, runner
from judge.worker.launch import fresh
from judge.worker.protocol import Requests, encode_request
from tests.support.cli import SLUG

CASES = [(slug, case) for slug in available() for case in find_problem(slug).cases]
WIRING_WORDS = ("detach", "attached", "Wiring", "scale", "used")


@pytest.mark.parametrize("slug, case", CASES, ids=[f"{s}:{c.id}" for s, c in CASES])
def test_a_call_request_holds_that_call_alone(slug, case):
    for index, call in enumerate(case.calls):
        request = case.call_request(index)
        assert set(request) == {"method", "args", "objects", "hidden"}
        assert request["method"] == call["method"] and request["args"] == call["args"]
        assert set(request["objects"]) == {a[1:] for a in call["args"] if isinstance(a, str) and a.startswith("$")}
        text = json.dumps(request)
        for other in case.calls:
            literal = json.dumps([a for a in other["args"] if not (isinstance(a, str) and a.startswith("$"))])
            assert other["args"] == call["args"] or len(literal) < 40 or literal[1:-1] not in text


@pytest.mark.parametrize("slug", ["backprop-bug-finder", "disconnected-parameters"])
def test_no_request_names_a_bug_or_a_wiring_and_the_worker_builds_the_same(slug):
    words = [b for bugs in kinds.BUGS.values() for b in bugs if b != "none"] + ["detach", "attached", "Wiring"]
    for case in find_problem(slug).cases:
        for index in range(len(case.calls)):
            request = case.call_request(index)
            text = json.dumps({k: v for k, v in request.items() if k != "hidden"})
            assert not [w for w in words if w in text], (case.id, index)  # every head holds the same placeholders
            rebuilt = kinds.reveal(request["objects"], tuple(request["hidden"]))
            assert checksum(build_objects(rebuilt)) == checksum(build_objects(request_objects(case, index)))


def request_objects(case: Any, index: int) -> dict[str, Any]:
    names = {a[1:] for a in case.calls[index]["args"] if isinstance(a, str) and a.startswith("$")}
    return {n: case.objects[n] for n in names}


def test_the_worker_wipes_hidden_values_once_read():
    first = {"type": "call", "id": 1, "hidden": [3.0, 0.0, 1.0]}
    second = {"type": "call", "id": 2, "hidden": [2.0]}
    reader = Requests(io.BytesIO(encode_request(first) + encode_request(second)))
    assert reader.next() == {**first, "hidden": (3.0, 0.0, 1.0)}
    assert struct.pack("<d", 3.0) not in bytes(reader.buffer)  # the first request's values are gone...
    assert reader.next() == {**second, "hidden": (2.0,)}  # ...and the next request is intact
    assert not any(reader.buffer) and reader.next() is None


def test_a_request_larger_than_the_buffer_arrives_whole_and_leaves_no_hidden_value():
    big = {"type": "call", "id": 1, "args": [list(range(40_000))], "hidden": [7.0]}
    reader = Requests(io.BytesIO(encode_request(big)))
    assert reader.next() == {**big, "hidden": (7.0,)}
    assert len(reader.buffer) > Requests.CHUNK and not any(reader.buffer)


def _neutral(value: Any) -> Any:
    """How a value looks to someone inspecting it, without its address or its tensors' numbers."""
    if callable(value) and not isinstance(value, torch.nn.Module):
        return ("callable", getattr(value, "__name__", ""), getattr(value, "__qualname__", ""),
                getattr(value, "__module__", ""), getattr(value, "__doc__", None))
    if isinstance(value, dict):
        return {k: _neutral(v) for k, v in value.items()}
    if isinstance(value, (torch.Tensor, torch.nn.Module)):
        return type(value).__name__
    return re.sub(r"0x[0-9a-f]+", "0x", repr(value))


def view(model: torch.nn.Module) -> dict[str, Any]:
    """Everything print, vars, dir, state_dict and the named_* iterators show of a model and its modules."""
    modules = {}
    for name, module in model.named_modules():
        cls = type(module)
        modules[name] = {"class": (cls.__name__, cls.__qualname__, cls.__module__, cls.__doc__),
                         "repr": module.extra_repr(), "dir": dir(module),
                         "vars": {k: _neutral(v) for k, v in vars(module).items()}}
    return {"print": str(model), "repr": repr(model), "modules": modules, "state_dict": list(model.state_dict()),
            "parameters": [n for n, _ in model.named_parameters()], "buffers": [n for n, _ in model.named_buffers()]}


def _mlp(layers: list[dict]) -> dict:
    return {"kind": "mlp", "seed": 3, "layers": layers}


def _branched(**wiring: Any) -> dict:
    return {"kind": "branched", "seed": 3, "trunk": [{"linear": [4, 4]}, {"act": "tanh"}],
            "heads": [{"name": "a", "layers": [{"linear": [4, 2]}]},
                      {"name": "b", "layers": [{"linear": [4, 2]}], **wiring}]}


VARIANTS = [(_mlp([{"custom": "linear", "linear": [4, 4], "bug": b}, {"custom": "tanh"}]),
             _mlp([{"custom": "linear", "linear": [4, 4]}, {"custom": "tanh"}])) for b in kinds.BUGS["linear"]]
VARIANTS += [(_mlp([{"custom": layer, "bug": b}]), _mlp([{"custom": layer}]))
             for layer in ("tanh", "sigmoid") for b in kinds.BUGS[layer]]
VARIANTS += [(_branched(**w), _branched()) for w in (
    {"input": "detach"}, {"output": "detach"}, {"scale": 0.0}, {"used": False},
    {"input": "detach", "output": "detach", "scale": 0.0})]


@pytest.mark.parametrize("variant, plain", VARIANTS, ids=[json.dumps(v)[:90] for v, _ in VARIANTS])
def test_a_judge_built_model_shows_the_same_whatever_its_bug_or_wiring(variant, plain):
    built, reference = build_objects({"m": variant})["m"], build_objects({"m": plain})["m"]
    assert view(built) == view(reference)
    judge_made = [(m["repr"], m["vars"]) for m in view(built)["modules"].values() if m["class"][2].startswith("judge.")]
    shown = json.dumps([str(built), judge_made], default=str).replace("_routes", "")  # (class docstrings describe
    # every variant alike, as the statement does: "the sum over used heads of scale · head(h)")
    assert not [w for w in ["bug", *kinds.BUGS["linear"][1:], *kinds.BUGS["tanh"][1:], *kinds.BUGS["sigmoid"][1:],
                            *WIRING_WORDS, "gate", "wiring", "route"] if w in shown]
    for module in built.modules():  # nothing a judge-built module holds is a setting to flip: parameters, code
        if not type(module).__module__.startswith("judge."):
            continue
        plain_data = {k: v for k, v in vars(module).items()
                      if isinstance(v, (str, bool, int, float)) and k != "training"}
        assert plain_data == {}, plain_data


def test_no_worker_that_imports_a_submission_is_sent_a_case(toy_root, monkeypatch):
    """A real session on the toy problem: one checker gets every case and nothing else; every other worker gets
    a setup without cases, then one call at a time."""
    monkeypatch.setenv("JUDGE_PROBLEMS", str(toy_root / "problems"))
    problem = load_problem(toy_root / "problems" / SLUG)
    sent: dict[int, list[dict]] = {}
    real_send = runner.Worker.send
    monkeypatch.setattr(runner.Worker, "send", lambda self, m: (sent.setdefault(id(self), []).append(m),
                                                                   real_send(self, m))[1])
    session = Session(problem.reference.read_bytes(), problem.cases, [m["name"] for m in problem.methods], "cpu", 2 << 30,
                      fresh(probe.confinement("cpu")))
    try:
        results = judge_cases(session, [CaseLimits(60.0, 2 << 30)] * len(problem.cases), None, {})
    finally:
        session.close()
    assert all(r.verdict.value == "accepted" for r in results)
    checkers = [m for m in sent.values() if m[0]["type"] == "verify"]
    assert len(checkers) == 1 and len(checkers[0]) == 1 and len(checkers[0][0]["cases"]) == len(problem.cases)
    workers = [m for m in sent.values() if m[0]["type"] != "verify"]
    assert workers and all(set(m[0]) == {"type", "device", "methods"} for m in workers)
    calls = [c for m in workers for c in m[1:]]
    assert calls and all(set(c) == {"type", "id", "method", "args", "objects", "hidden"} for c in calls)
