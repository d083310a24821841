"""The checks ``judge gen`` runs on every case, each reporting :class:`Finding` s with a severity.

Problem-neutral: nothing here knows a problem. What a problem guards is data, in ``[fragility]`` of its
problem.toml (:class:`Guards`); which modules have kinks or underflow is the kinds registry's
(:func:`judge.package.kinds.hazards`). The rules (``docs/numerics.md`` §4, with what
each problem guards in ``docs/authoring.md`` §3):

* R1  a statistic is NaN or infinite, or larger than 1e6 in magnitude, in any configuration;
* R2  a float32 configuration strays from float64 by more than a quarter of the tolerance;
* R3  a string output (a decision), or the structure of an output, differs between configurations;
* R4  a guarded statistic lies within 0.1% of one of its thresholds (a warning within 1%): thresholds by the
      statistic's name (``[fragility.thresholds]``), by method (``[fragility.thresholds.by_method]``, also for
      lists of bare numbers) or a call argument (``[fragility.relative]``, e.g. ``total_norm = "max_norm"``);
      a value *exactly* on its threshold in float64 and in every configuration (the threshold rounded to that
      configuration's dtype) is a tie the case tests on purpose, not a near miss;
* R5  the input of a module with a kink has a neuron (a channel, for 4-D inputs: the maximum over N, H, W)
      whose best value is within 1e-4 standard deviations of the kink without being exactly on it, or the
      input of a module with an underflow floor falls below it (sigmoid: -80);
* G1  a value the reference's ``Solution._boundaries(*args)`` pairs with a threshold lies within
      1e-6 * max(1, |threshold|) of it without being exactly on it;
* an output holds None, a bool or anything that is not a number, string, list or dict (an authoring error);
* H1  a hinted mistake's stored output no longer recognises the same mistake run under another configuration
      or code path (in :mod:`judge.author.stability`, with the build and R1 to R3 on other code paths);
* a warning for expected values in (0, 100 * absolute tolerance), which the absolute tolerance compares
  weakly, unless their name is listed in ``[fragility] fractions``.

A leaf's *name* is its nearest dict key, or the method's name when no dict holds it.
"""

from __future__ import annotations

import contextlib
import inspect
import math
from dataclasses import dataclass, field
from typing import Any, Iterator

import torch
from torch import nn

from judge import messages
from judge.errors import BadInput
from judge.package.kinds import hazards
from judge.package.problem import Problem
from judge.package.tolerance import Tolerance

MAGNITUDE_CAP = 1e6
NOISE_SHARE = 0.25
THRESHOLD_MARGIN = 1e-3
NEAR_THRESHOLD_MARGIN = 1e-2
KINK_MARGIN = 1e-4
BOUNDARY_MARGIN = 1e-6
SMALL_FACTOR = 100
"""expected values below this many absolute tolerances (0.01 by default) are compared weakly"""

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True)
class Finding:
    severity: str
    """``error`` (the case is rejected) or ``warning``"""
    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.text}"


Leaf = tuple[str, str, Any]
"""(path, name, value)"""


def leaves(value: Any, name: str, path: str = "") -> Iterator[Leaf]:
    """Every leaf of an output, with its path (``[0].std``) and name (``std``)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, str(k), f"{path}.{k}" if path else str(k))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from leaves(v, name, f"{path}[{i}]")
    else:
        yield path, name, value


def _flat(outputs: list[Any], methods: list[str]) -> dict[str, Leaf]:
    """Every leaf of a case's outputs, by a path that starts with the call's index."""
    return {f"[{i}]{path}": (f"[{i}]{path}", name, v)
            for i, (out, method) in enumerate(zip(outputs, methods)) for path, name, v in leaves(out, method)}


@dataclass(frozen=True)
class Guards:
    """What ``[fragility]`` of problem.toml asks the generator to guard."""

    thresholds: dict[str, list[float]] = field(default_factory=dict)
    by_method: dict[str, Any] = field(default_factory=dict)
    """method -> thresholds for every number it returns, or name -> thresholds within its output"""
    relative: dict[str, str] = field(default_factory=dict)
    """statistic name -> the call argument that is its threshold"""
    fractions: frozenset[str] = frozenset()
    """names whose small values are exact fractions, not weakly compared statistics"""

    def thresholds_for(self, method: str, name: str) -> list[float]:
        scoped = self.by_method.get(method, {})
        scoped = scoped if isinstance(scoped, list) else scoped.get(name, [])
        return [*self.thresholds.get(name, []), *scoped]


def _numbers(value: Any) -> bool:
    return isinstance(value, list) and all(type(v) in (int, float) for v in value)


def guards(problem: Problem) -> Guards:
    """``[fragility]`` of ``problem``, checked: a malformed table is bad input naming the key."""
    table = problem.meta.get("fragility", {})

    def need(ok: bool, what: str) -> None:
        if not ok:
            raise BadInput("problem_invalid", path=problem.root / "problem.toml", problem=f"[fragility] {what}")

    need(isinstance(table, dict) and set(table) <= {"thresholds", "relative", "fractions"},
         "knows only thresholds, relative and fractions")
    thresholds = dict(table.get("thresholds", {}))
    by_method = thresholds.pop("by_method", {})
    need(all(_numbers(v) for v in thresholds.values()), "thresholds: each key needs a list of numbers")
    need(isinstance(by_method, dict) and all(_numbers(v) or isinstance(v, dict) and all(map(_numbers, v.values()))
                                             for v in by_method.values()),
         "thresholds.by_method: each method needs a list of numbers, or a table of them by name")
    relative = table.get("relative", {})
    need(isinstance(relative, dict) and all(isinstance(v, str) for v in relative.values()),
         "relative: each statistic names the call argument that is its threshold, e.g. total_norm = \"max_norm\"")
    fractions = table.get("fractions", [])
    need(isinstance(fractions, list) and all(isinstance(v, str) for v in fractions), "fractions: a list of names")
    return Guards(thresholds, by_method, relative, frozenset(fractions))


# -- outputs ----------------------------------------------------------------------------------------------------

def _not_comparable(value: Any) -> str | None:
    """What makes ``value`` no answer the judge can compare, or None."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, dict):
        return next((f"a {type(k).__name__} key" for k in value if not isinstance(k, str)), None) or next(
            (bad for v in value.values() if (bad := _not_comparable(v))), None)
    if isinstance(value, (list, tuple)):
        return next((bad for v in value if (bad := _not_comparable(v))), None)
    return None if type(value) in (int, float, str) else f"a {type(value).__name__}"


def bad_outputs(case_id: str, outputs: list[Any], methods: list[str]) -> list[Finding]:
    """An authoring error for every call whose output the judge cannot compare."""
    found = []
    for index, (output, method) in enumerate(zip(outputs, methods)):
        what = _not_comparable(output)
        if what:
            found.append(Finding(ERROR, "output", messages.say(
                "gen_bad_output", case=case_id, call=index, method=method, what=what)))
    return found


# -- R1 to R4 and the small-value warning --------------------------------------------------------------------------

def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


def compare_configurations(reference: list[Any], variants: dict[str, list[Any]], methods: list[str],
                           tolerance: Tolerance) -> list[Finding]:
    """R1, R2 and R3: every configuration against float64, one finding per rule and leaf."""
    found: dict[tuple[str, str], Finding] = {}
    ref = _flat(reference, methods)
    for config, outputs in variants.items():
        got = _flat(outputs, methods)
        if set(got) != set(ref):
            found.setdefault(("R3", "structure"), Finding(ERROR, "R3", f"the outputs' structure differs between {config} and float64"))
            continue
        for path, (_, _, want) in ref.items():
            value = got[path][2]
            if not (_is_number(value) and _is_number(want)):
                if value != want:
                    found.setdefault(("R3", path), Finding(ERROR, "R3", f"decision {path} is {value!r} in {config} but {want!r} in float64"))
                continue
            value, want = float(value), float(want)
            if not (math.isfinite(value) and math.isfinite(want)) or abs(want) > MAGNITUDE_CAP:
                found.setdefault(("R1", path), Finding(ERROR, "R1", f"{path} is {want} (float64) / {value} ({config}): non-finite or above {MAGNITUDE_CAP:g}"))
            elif abs(value - want) > NOISE_SHARE * tolerance.bound(want):
                found.setdefault(("R2", path), Finding(ERROR, "R2", f"{path} differs by {abs(value - want):.2e} between {config} and float64, over a quarter of the tolerance"))
    return list(found.values())


def _argument(signature: inspect.Signature | None, args: list[Any], name: str) -> float | None:
    if signature is None:
        return None
    try:
        value = signature.bind(*args).arguments.get(name)
    except TypeError:
        return None
    return float(value) if _is_number(value) else None


def _exact_tie(value: float, limit: float, path: str, variants: dict[str, dict[str, Leaf]]) -> bool:
    """``value`` equals ``limit`` exactly, and so does the same leaf of every configuration at its own precision
    (float32 configurations against the threshold rounded to float32): the same tie on every code path."""
    def rounded(config: str) -> float:
        dtype = torch.float32 if config.startswith("float32") else torch.float64
        return torch.tensor(limit, dtype=torch.float64).to(dtype).item()

    return value == limit and all(
        path in leafs and _is_number(leafs[path][2]) and float(leafs[path][2]) == rounded(config)
        for config, leafs in variants.items())


def thresholds(reference: list[Any], methods: list[str], call_args: list[list[Any]], signatures: list[Any],
               rules: Guards, variants: dict[str, list[Any]]) -> list[Finding]:
    """R4: guarded statistics near their thresholds (an error within 0.1%, a warning within 1%), unless exactly
    on them in every one of ``variants`` (configuration -> outputs) too."""
    found = []
    others = {config: _flat(outputs, methods) for config, outputs in variants.items()}
    for index, (output, method) in enumerate(zip(reference, methods)):
        for path, name, value in leaves(output, method):
            if not _is_number(value) or not math.isfinite(value):
                continue
            limits = rules.thresholds_for(method, name)
            if name in rules.relative:
                limit = _argument(signatures[index], call_args[index], rules.relative[name])
                limits = limits + ([limit] if limit is not None else [])
            for limit in limits:
                gap = abs(float(value) - limit)
                if _exact_tie(float(value), limit, f"[{index}]{path}", others):
                    continue
                if gap <= THRESHOLD_MARGIN * abs(limit):
                    found.append(Finding(ERROR, "R4", f"[{index}]{path} = {value:.6g} lies within 0.1% of the threshold {limit:g}"))
                elif gap <= NEAR_THRESHOLD_MARGIN * abs(limit):
                    found.append(Finding(WARNING, "R4", f"[{index}]{path} = {value:.6g} lies within 1% of the threshold {limit:g}"))
    return found


def small_values(expected: list[Any], methods: list[str], tolerance: Tolerance, rules: Guards) -> list[Finding]:
    """One warning for the expected values the absolute tolerance compares weakly."""
    below = SMALL_FACTOR * tolerance.absolute
    small = [(path, value) for path, name, value in _flat(expected, methods).values()
             if type(value) is float and 0 < abs(value) < below and name not in rules.fractions]
    if not small:
        return []
    path, value = small[0]
    return [Finding(WARNING, "small", messages.say("gen_small_values", count=len(small), below=f"{below:g}",
                                                    path=path, value=value))]


# -- R5: hooks on every module with a hazard ---------------------------------------------------------------------

def _best_per_unit(z: torch.Tensor) -> torch.Tensor:
    """Each neuron's largest input over the batch; each channel's over N, H and W for 4-D inputs."""
    if z.dim() == 4:
        return z.transpose(0, 1).reshape(z.shape[1], -1).amax(1)
    return z.reshape(-1, z.shape[-1]).amax(0) if z.dim() >= 2 else z


class HazardWatch:
    """Forward pre-hooks on every module with a hazard, in every model a call receives; they record R5 findings
    while the reference runs (in float64, in whatever mode it runs the model)."""

    def __init__(self) -> None:
        self.findings: dict[str, Finding] = {}
        self.handles: list[Any] = []

    def attach(self, objects: dict[str, Any]) -> dict[str, Any]:
        for object_name, obj in objects.items():
            if isinstance(obj, nn.Module):
                for name, module in obj.named_modules():
                    hazard = hazards(module)
                    if hazard is not None:
                        where = f"{object_name}.{name}" if name else object_name
                        self.handles.append(module.register_forward_pre_hook(self._hook(where, module, hazard)))
        return objects

    def _hook(self, where: str, module: nn.Module, hazard: Any) -> Any:
        kind = type(module).__name__

        def check(_module: nn.Module, inputs: tuple[Any, ...]) -> None:
            z = inputs[0] if inputs else None
            if where in self.findings or not isinstance(z, torch.Tensor) or not z.is_floating_point() or not z.numel():
                return
            z = z.detach()
            if hazard.floor is not None and z.min().item() < hazard.floor:
                self.findings[where] = Finding(ERROR, "R5", f"the input of {where} ({kind}) reaches "
                                               f"{z.min().item():.1f}, below {hazard.floor:g} (float32 underflow)")
                return
            spread = z.std().item() if z.numel() > 1 else 0.0
            unit = "channel" if z.dim() == 4 else "neuron"
            for kink in hazard.kinks:
                best = _best_per_unit(z) - kink
                near = (best != 0) & (best.abs() < KINK_MARGIN * spread)
                if near.any():
                    self.findings[where] = Finding(ERROR, "R5", (
                        f"a {unit}'s best input to {where} ({kind}) is {best[near][0].item():.2e} from its kink at "
                        f"{kink:g}, within noise"))
                    return

        return check

    @contextlib.contextmanager
    def watching(self) -> Iterator["HazardWatch"]:
        try:
            yield self
        finally:
            for handle in self.handles:
                handle.remove()
            self.handles.clear()


# -- G1: the reference's own boundaries -------------------------------------------------------------------------

def boundaries(pairs: Any, index: int) -> list[Finding]:
    """G1 on the ``(value, threshold)`` pairs of ``Solution._boundaries`` for call ``index``."""
    found = []
    for value, threshold in pairs:
        v = torch.as_tensor(value, dtype=torch.float64).detach().cpu()
        gap = (v - float(threshold)).abs()
        near = (gap != 0) & (gap <= BOUNDARY_MARGIN * max(1.0, abs(float(threshold))))
        if near.any():
            found.append(Finding(ERROR, "G1", f"call {index}: a value is {gap[near].min().item():.2e} from its "
                                 f"boundary {float(threshold):g}, within noise"))
    return found
