"""``judge gen``: compute a problem's expected values with its reference solution and reject fragile cases.

Author-side and trusted: the reference runs in this process. For every case the reference is called on
objects built as the judge builds them; the stored expected value is its output on the float32 objects cast to
float64 (``E = round(x_ref, 4)``). The case is then recomputed, *unrounded* (the reference's ``round`` is
replaced by the identity in its own namespace), in float64 and in float32 with 1 thread, with several threads
and with the batch rows permuted, and rejected (``shared/research/numerics.md`` §4) when

* R1  a statistic is NaN or infinite, or larger than 1e6 in magnitude, in any configuration;
* R2  a float32 configuration strays from float64 by more than a quarter of the tolerance;
* R3  a string output (a decision) differs between configurations;
* R4  a statistic named in ``[fragility.thresholds]`` of problem.toml lies within 0.1% of one of its thresholds;
* R5  a neuron's best pre-activation is within 1e-4 standard deviations of zero without being exactly zero,
      or a sigmoid's input falls below -80 (float32 underflow to exactly 0).

For sample cases it also records the ``mistakes``: what the declared wrong submission of every hinted pitfall
returns where that differs from the expected output (the data :mod:`judge.judging.hints` recognises mistakes by).
Declared submissions are the author's own code, trusted like the reference.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import math
import platform
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator

import torch
from torch import nn

from judge.judging.compare import compare, numbers_match, tolerance
from judge.machine import torch_version
from judge.package.build import build_objects, checksum, resolve_args, to_device
from judge.package.cases import Case, save_case
from judge.package.problem import Problem

PARALLEL_THREADS = 4
PERMUTATION_SEED = 12345
MAGNITUDE_CAP = 1e6
NOISE_SHARE = 0.25
THRESHOLD_MARGIN = 1e-3
KINK_MARGIN = 1e-4
SIGMOID_FLOOR = -80.0


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_reference(problem: Problem) -> ModuleType:
    return _load(problem.reference, f"reference_{problem.slug.replace('-', '_')}")


def load_mistakes(problem: Problem) -> dict[str, Any]:
    """A ``Solution`` instance per hinted pitfall, from its first declared submission."""
    found: dict[str, Any] = {}
    for declared in problem.declared_submissions():
        if declared.pitfall in problem.hints and declared.pitfall not in found:
            module = _load(declared.path, f"mistake_{declared.pitfall.replace('-', '_')}")
            found[declared.pitfall] = module.Solution()
    return found


@contextlib.contextmanager
def unrounded(module: ModuleType) -> Iterator[None]:
    """Make the reference's own ``round(x, n)`` the identity, to see the statistics before rounding."""
    module.round = lambda value, ndigits=None: value
    try:
        yield
    finally:
        del module.round


@contextlib.contextmanager
def threads(count: int) -> Iterator[None]:
    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _cast(obj: Any, dtype: torch.dtype) -> Any:
    return obj.to(dtype) if isinstance(obj, (nn.Module, torch.Tensor)) else obj


def _permute_rows(objects: dict[str, Any]) -> dict[str, Any]:
    """The same row permutation for every batch tensor: every statistic here is permutation-invariant."""
    batch = {t.shape[0] for t in objects.values() if isinstance(t, torch.Tensor) and t.dim() >= 2}
    if len(batch) != 1:
        return objects
    order = torch.randperm(batch.pop(), generator=torch.Generator().manual_seed(PERMUTATION_SEED))
    return {k: v[order] if isinstance(v, torch.Tensor) and v.dim() >= 2 else v for k, v in objects.items()}


def call_one(solution: Any, case: Case, call: dict[str, Any], dtype: torch.dtype = torch.float64,
             device: str = "cpu", transform: Callable[[dict[str, Any]], dict[str, Any]] = lambda o: o) -> Any:
    """One call of ``case`` on freshly built objects."""
    objects = transform(build_objects(case.objects))
    objects = {k: to_device(_cast(v, dtype), device) for k, v in objects.items()}
    return getattr(solution, call["method"])(*resolve_args(call["args"], objects))


def call_reference(solution: Any, case: Case, dtype: torch.dtype = torch.float64, device: str = "cpu",
                   transform: Callable[[dict[str, Any]], dict[str, Any]] = lambda o: o) -> list[Any]:
    """The reference's output for every call of ``case``, each on freshly built objects."""
    return [call_one(solution, case, call, dtype, device, transform) for call in case.calls]


def _storable(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def mistake_outputs(mistakes: dict[str, Any], case: Case, expected: list[Any]) -> list[dict[str, Any]]:
    """Where each known mistake departs from ``expected`` on a sample case, and what it returns there.

    A call on which a mistake raises, or returns what JSON cannot store, tells nothing and is left out.
    """
    found = []
    for pitfall, solution in mistakes.items():
        for index, call in enumerate(case.calls):
            try:
                output = call_one(solution, case, call)
            except Exception:  # noqa: BLE001 -- a mistake that crashes is not recognised by its output
                continue
            if _storable(output) and not compare(output, expected[index]).accepted:
                found.append({"pitfall": pitfall, "call": index, "output": output})
    return found


def _leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, f"{path}.{k}" if path else k)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _leaves(v, f"{path}[{i}]")
    else:
        yield path, value


def _fragility(problem: Problem, reference: list[Any], variants: dict[str, list[Any]]) -> str | None:
    thresholds = problem.meta.get("fragility", {}).get("thresholds", {})
    ref_leaves = dict(_leaves(reference))
    for name, outputs in variants.items():
        for path, value in _leaves(outputs):
            want = ref_leaves.get(path)
            if isinstance(value, str) or isinstance(want, str):
                if value != want:
                    return f"R3: decision {path} is {value!r} in {name} but {want!r} in float64"
                continue
            value, want = float(value), float(want)
            if not (math.isfinite(value) and math.isfinite(want)) or abs(want) > MAGNITUDE_CAP:
                return f"R1: {path} is {want} (float64) / {value} ({name}): non-finite or above {MAGNITUDE_CAP:g}"
            if abs(value - want) > NOISE_SHARE * tolerance(want):
                return f"R2: {path} differs by {abs(value - want):.2e} between {name} and float64, over a quarter of the tolerance"
    for path, value in ref_leaves.items():
        for threshold in thresholds.get(path.rsplit(".", 1)[-1], []):
            if not isinstance(value, str) and abs(float(value) - threshold) <= THRESHOLD_MARGIN * abs(threshold):
                return f"R4: {path} = {value:.6g} lies within 0.1% of the threshold {threshold:g}"
    return None


def _kinks(case: Case) -> str | None:
    """R5, on every Linear output of every model that a call feeds with a tensor."""
    for call in case.calls:
        objects = {k: _cast(v, torch.float64) for k, v in build_objects(case.objects).items()}
        args = resolve_args(call["args"], objects)
        models = [a for a in args if isinstance(a, nn.Sequential)]
        inputs = [a for a in args if isinstance(a, torch.Tensor)]
        if not models or not inputs:
            continue
        h = inputs[0]
        with torch.no_grad():
            for layer in models[0].children():
                if isinstance(layer, nn.Sigmoid) and h.numel() and h.min().item() < SIGMOID_FLOOR:
                    return f"R5: a sigmoid input reaches {h.min().item():.1f}, below {SIGMOID_FLOOR:g}"
                h = layer(h)
                if isinstance(layer, nn.Linear) and h.dim() == 2 and h.shape[0] > 0:
                    best = h.max(dim=0).values
                    spread = h.std().item() if h.numel() > 1 else 0.0
                    near = (best != 0) & (best.abs() < KINK_MARGIN * spread)
                    if near.any():
                        return f"R5: a neuron's best pre-activation is {best[near][0].item():.2e}, within noise of 0"
    return None


def check_case(problem: Problem, module: ModuleType, case: Case) -> tuple[list[Any], str | None]:
    """The expected outputs of ``case``, and the reason it is fragile (None when it is sound)."""
    solution = module.Solution()
    expected = call_reference(solution, case)
    with unrounded(module):
        reference = call_reference(solution, case)
        with threads(1):
            variants = {"float32, 1 thread": call_reference(solution, case, torch.float32)}
            variants["float32, permuted batch"] = call_reference(solution, case, torch.float32, transform=_permute_rows)
        with threads(PARALLEL_THREADS):
            variants[f"float32, {PARALLEL_THREADS} threads"] = call_reference(solution, case, torch.float32)
    return expected, _fragility(problem, reference, variants) or _kinks(case)


def _settings(device: str) -> dict[str, Any]:
    if device == "cpu":
        return {"threads": 1, "tf32": False, "reference_dtype": "float64", "machine": platform.machine()}
    return {"tf32": False, "matmul_precision": "highest", "reference_dtype": "float32",
            "gpu": torch.cuda.get_device_name(0)}


def _device_case(problem: Problem, module: ModuleType, case: Case, device: str) -> tuple[list[Any], str | None, list[str]]:
    """A case's expectations computed in float32 on ``device`` (TF32 off), with its fragility there and the
    fields whose 4-decimal value differs from the CPU expectation."""
    solution = module.Solution()
    expected = call_reference(solution, case, torch.float32, device)
    with unrounded(module):
        reference = call_reference(solution, case)
        reason = _fragility(problem, reference, {
            f"float32 on {device}": call_reference(solution, case, torch.float32, device)})
    cpu = dict(_leaves(case.expected.get("cpu", {}).get("outputs", [])))
    changed = [path for path, value in _leaves(expected) if path in cpu and cpu[path] != value]
    return expected, reason, changed


def _force_full_fp32() -> None:
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")


def generate(problem: Problem, dry_run: bool = False, log: Callable[[str], None] = print,
             device: str = "cpu") -> list[tuple[str, str]]:
    """Write ``build_sha256`` and ``expected.<device>`` into every sound case; return the rejected ones."""
    torch.set_num_threads(1)
    _force_full_fp32()
    module = load_reference(problem)
    mistakes = load_mistakes(problem)
    rejected = []
    for case in problem.cases:
        if device == "cpu":
            expected, reason = check_case(problem, module, case)
            changed: list[str] = []
        else:
            expected, reason, changed = _device_case(problem, module, case, device)
        if reason:
            rejected.append((case.id, reason))
            log(f"rejected {case.id}: {reason}")
            continue
        raw = dict(case.raw)
        raw["build_sha256"] = checksum(build_objects(case.objects))
        raw["expected"] = {**raw.get("expected", {}), device: {
            "torch": torch_version(), "settings": _settings(device), "outputs": expected}}
        if device == "cpu":  # hints are matched against the CPU expectations
            raw.pop("mistakes", None)
            found = [] if case.hidden else mistake_outputs(mistakes, case, expected)
            if found:
                raw["mistakes"] = found
        if not dry_run:
            save_case(case, raw)
        log(f"ok       {case.id}" + (f" (differs from cpu at {', '.join(changed)})" if changed else ""))
    log(f"{problem.slug}: {len(problem.cases) - len(rejected)} cases kept, {len(rejected)} rejected")
    return rejected


def same_outputs(stored: list[Any], fresh: list[Any]) -> str | None:
    """The first leaf where a stored expected value fails the comparison rule against a recomputed one."""
    fresh_leaves = dict(_leaves(fresh))
    stored_leaves = dict(_leaves(stored))
    if set(fresh_leaves) != set(stored_leaves):
        return "(structure)"
    for path, want in stored_leaves.items():
        got = fresh_leaves[path]
        if isinstance(want, str) or isinstance(got, str):
            if want != got:
                return path
        elif not numbers_match(float(got), float(want)):
            return path
    return None
