"""``judge gen``: compute a problem's expected values with its reference solution and reject fragile cases.

Author-side and trusted: the reference runs in this process. For every case the reference is called on
objects built as the judge builds them; the stored expected value is its output on the float32 objects cast to
float64 (``E = round(x_ref, 4)``; integer tensors are never cast). The case is then recomputed, *unrounded*
(the reference's ``round`` is replaced by the identity in its own namespace), in float64 and in float32 with
1 thread, with several threads and with the batch permuted, and checked by the rules of
:mod:`judge.author.fragility`. Every check reports with a severity; a case with an error is rejected (its file
is left as it is) and the generator goes on with the next one.

The batch permutation is the case's ``permute`` (object names sharing the batch axis, permuted together; ``[]``
switches it off). Without one, every tensor of two or more dimensions shares one batch size ``b`` and is
permuted, together with every 1-D integer tensor of length ``b`` (class labels); with no common batch size
nothing is permuted.

For sample cases it also records the ``mistakes``: what the declared wrong submission of every hinted pitfall
returns where that differs from the expected output (the data :mod:`judge.judging.hints` recognises mistakes by).
Declared submissions are the author's own code, trusted like the reference.
"""

from __future__ import annotations

import inspect
import json
import platform
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable

import torch

from judge import messages
from judge.author import fragility
from judge.author.fragility import ERROR, Finding, HazardWatch
from judge.author.reference import (call_one, call_reference, load_mistakes, load_reference, objects_for, threads,
                                    unrounded)
from judge.judging.compare import compare
from judge.machine import torch_version
from judge.package.build import build_objects, checksum, resolve_args, seeded
from judge.package.cases import Case, save_case, tag_nonfinite
from judge.package.problem import Problem

PARALLEL_THREADS = 4
PERMUTATION_SEED = 12345
Log = Callable[[str], None]


@dataclass
class Checked:
    """A case's expected outputs (None when the reference failed) and what the checks found."""

    expected: list[Any] | None
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]


def _batch_names(case: Case, objects: dict[str, Any]) -> list[str]:
    """The objects that share the batch axis: the case's ``permute``, else inferred (module docstring)."""
    if case.permute is not None:
        return case.permute
    tensors = {k: v for k, v in objects.items() if isinstance(v, torch.Tensor)}
    batch = {v.shape[0] for v in tensors.values() if v.dim() >= 2}
    if len(batch) != 1:
        return []
    size = batch.pop()
    return [k for k, v in tensors.items() if v.dim() >= 2 or (
        v.dim() == 1 and not v.is_floating_point() and v.shape[0] == size)]


def permuted(case: Case) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A transform that permutes the batch rows of the case's batch objects, all with one permutation."""
    def transform(objects: dict[str, Any]) -> dict[str, Any]:
        names = _batch_names(case, objects)
        if not names:
            return objects
        order = torch.randperm(objects[names[0]].shape[0], generator=torch.Generator().manual_seed(PERMUTATION_SEED))
        return {k: v[order] if k in names else v for k, v in objects.items()}
    return transform


def _storable(value: Any) -> bool:
    """Whether a case file can hold ``value`` (non-finite numbers are tagged, see :func:`tag_nonfinite`)."""
    try:
        json.dumps(tag_nonfinite(value), allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def mistake_outputs(mistakes: dict[str, Any], case: Case, expected: list[Any], problem: Problem) -> list[dict[str, Any]]:
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
            if _storable(output) and not compare(output, expected[index], tolerance=problem.tolerance).accepted:
                found.append({"pitfall": pitfall, "call": index, "output": output})
    return found


def _boundaries(solution: Any, case: Case) -> list[Finding]:
    """G1, when the reference's ``Solution`` has ``_boundaries``."""
    probe = getattr(solution, "_boundaries", None)
    if probe is None:
        return []
    found = []
    for index, call in enumerate(case.calls):
        args = resolve_args(call["args"], objects_for(case))
        with seeded():
            found += fragility.boundaries(probe(*args), index)
    return found


def _signature(solution: Any, method: str) -> inspect.Signature | None:
    try:
        return inspect.signature(getattr(solution, method))
    except (TypeError, ValueError):
        return None


def _outputs(problem: Problem, module: ModuleType, case: Case) -> tuple[list[Any], list[Any], dict[str, list[Any]], list[Finding]]:
    """The expected outputs, the unrounded float64 ones, those of every float32 configuration, and R5."""
    solution = module.Solution()
    expected = call_reference(solution, case)
    watch = HazardWatch()
    with unrounded(module):
        with watch.watching():
            reference = call_reference(solution, case, transform=watch.attach)
        with threads(1):
            variants = {"float32, 1 thread": call_reference(solution, case, torch.float32)}
            variants["float32, permuted batch"] = call_reference(solution, case, torch.float32, transform=permuted(case))
        with threads(PARALLEL_THREADS):
            variants[f"float32, {PARALLEL_THREADS} threads"] = call_reference(solution, case, torch.float32)
    return expected, reference, variants, list(watch.findings.values())


def check_case(problem: Problem, module: ModuleType, case: Case) -> Checked:
    """The expected outputs of ``case`` and every finding of the fragility checks."""
    methods = [call["method"] for call in case.calls]
    try:
        expected, reference, variants, hazards = _outputs(problem, module, case)
    except Exception as exc:  # noqa: BLE001 -- the author's reference failing is a finding, not a crash
        return Checked(None, [_reference_failed(module, case, exc)])
    bad = fragility.bad_outputs(case.id, expected, methods)
    if bad:
        return Checked(None, bad)
    solution, rules, tolerance = module.Solution(), fragility.guards(problem), problem.tolerance
    args = [call["args"] for call in case.calls]
    signatures = [_signature(solution, method) for method in methods]
    return Checked(expected, [
        *fragility.compare_configurations(reference, variants, methods, tolerance),
        *fragility.thresholds(reference, methods, args, signatures, rules),
        *hazards,
        *_boundaries(solution, case),
        *fragility.small_values(expected, methods, tolerance, rules),
    ])


def _reference_failed(module: ModuleType, case: Case, exc: Exception) -> Finding:
    """Which call raised: found again, call by call, so the author sees where."""
    solution = module.Solution()
    for index, call in enumerate(case.calls):
        try:
            call_one(solution, case, call)
        except Exception as failed:  # noqa: BLE001
            exc = failed
            break
    else:
        index = 0
    return Finding(ERROR, "reference", messages.say("gen_reference_failed", case=case.id, call=index,
                                                    method=case.calls[index]["method"],
                                                    reason=f"{type(exc).__name__}: {exc}"))


def _settings(device: str) -> dict[str, Any]:
    if device == "cpu":
        return {"threads": 1, "tf32": False, "reference_dtype": "float64", "machine": platform.machine()}
    return {"tf32": False, "matmul_precision": "highest", "reference_dtype": "float32",
            "gpu": torch.cuda.get_device_name(0)}


def _device_case(problem: Problem, module: ModuleType, case: Case, device: str) -> tuple[Checked, list[str]]:
    """A case's expectations computed in float32 on ``device`` (TF32 off), with its fragility there and the
    fields whose 4-decimal value differs from the CPU expectation."""
    solution = module.Solution()
    methods = [call["method"] for call in case.calls]
    expected = call_reference(solution, case, torch.float32, device)
    with unrounded(module):
        reference = call_reference(solution, case)
        findings = fragility.compare_configurations(reference, {
            f"float32 on {device}": call_reference(solution, case, torch.float32, device)}, methods, problem.tolerance)
    cpu = {path: value for path, _, value in fragility.leaves(case.expected.get("cpu", {}).get("outputs", []), "")}
    changed = [path for path, _, value in fragility.leaves(expected, "") if path in cpu and cpu[path] != value]
    return Checked(expected, findings), changed


def _force_full_fp32() -> None:
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")


def _record(problem: Problem, case: Case, expected: list[Any], device: str, mistakes: dict[str, Any]) -> dict[str, Any]:
    """The case file with the new checksum and expectations (and, on the CPU, the mistakes of sample cases)."""
    raw = dict(case.raw)
    raw["build_sha256"] = checksum(build_objects(case.objects))
    raw["expected"] = {**raw.get("expected", {}), device: {
        "torch": torch_version(), "settings": _settings(device), "outputs": expected}}
    if device == "cpu":  # hints are matched against the CPU expectations
        raw.pop("mistakes", None)
        found = [] if case.hidden else mistake_outputs(mistakes, case, expected, problem)
        if found:
            raw["mistakes"] = tag_nonfinite(found)
    return raw


def record_case(problem: Problem, case: Case, expected: list[Any]) -> None:
    """Write a new case file with the CPU ``expected`` values of :func:`check_case`, as :func:`generate` would."""
    save_case(case, _record(problem, case, expected, "cpu", {}))


def generate(problem: Problem, dry_run: bool = False, log: Log = print, device: str = "cpu") -> list[tuple[str, str]]:
    """Write ``build_sha256`` and ``expected.<device>`` into every sound case; return the rejected ones."""
    torch.set_num_threads(1)
    _force_full_fp32()
    module = load_reference(problem)
    mistakes = load_mistakes(problem)
    rejected = []
    for case in problem.cases:
        if device == "cpu":
            checked, changed = check_case(problem, module, case), []
        else:
            checked, changed = _device_case(problem, module, case, device)
        for finding in checked.findings:
            if finding.severity != ERROR:
                log(messages.say("gen_warning", case=case.id, finding=finding))
        if checked.errors or checked.expected is None:
            reason = "; ".join(map(str, checked.errors))
            rejected.append((case.id, reason))
            log(messages.say("gen_rejected", case=case.id, reason=reason))
            continue
        if not dry_run:
            save_case(case, _record(problem, case, checked.expected, device, mistakes))
        note = messages.say("gen_differs", fields=", ".join(changed)) if changed else ""
        log(messages.say("gen_ok", case=case.id, note=note))
    log(messages.say("gen_summary", slug=problem.slug, kept=len(problem.cases) - len(rejected), rejected=len(rejected)))
    return rejected


def same_outputs(stored: list[Any], fresh: list[Any], problem: Problem) -> str | None:
    """The first leaf where a stored expected value fails the problem's comparison against a recomputed one."""
    fresh_leaves = {path: value for path, _, value in fragility.leaves(fresh, "")}
    stored_leaves = {path: value for path, _, value in fragility.leaves(stored, "")}
    if set(fresh_leaves) != set(stored_leaves):
        return "(structure)"
    for path, want in stored_leaves.items():
        got = fresh_leaves[path]
        if isinstance(want, str) or isinstance(got, str):
            if want != got:
                return path
        elif not problem.tolerance.matches(float(got), float(want)):
            return path
    return None
