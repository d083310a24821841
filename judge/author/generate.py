"""``judge gen``: compute a problem's expected values with its reference solution and reject fragile cases.

Author-side and trusted: the reference runs in this process. For every case the reference is called on
objects built as the judge builds them; the stored expected value is its output on the float32 objects cast to
float64 (``E = round(x_ref, 4)``; integer tensors are never cast). The case is then recomputed, *unrounded*
(the reference's ``round`` is replaced by the identity in its own namespace), in float64 and in float32 with
1 thread, with several threads and with the batch permuted, and, on the CPU, under every other code path of
this machine's kernels (:mod:`judge.author.codepaths`), each in a worker of its own that runs while this
process works (:mod:`judge.author.rerun`). All of it is checked by the rules of :mod:`judge.author.fragility`
and :mod:`judge.author.stability`, and the log says, per configuration, the largest share of the tolerance it
used. Every check reports with a severity; a case with an error is rejected (its file is left as it is) and the
generator goes on with the next one.

The batch permutation is the case's ``permute`` (object names sharing the batch axis, permuted together; ``[]``
switches it off). Without one, every tensor of two or more dimensions shares one batch size ``b`` and is
permuted, together with every 1-D integer tensor of length ``b`` (class labels); with no common batch size
nothing is permuted.

Then no hidden case may leak (:mod:`judge.author.leaks`): one whose expected output could be read from what a
worker is sent before it is asked for (or from a sample's published output) is rejected too.

For sample cases it also records the ``mistakes``: what the declared wrong submission of every hinted pitfall
returns where that differs from the expected output (the data :mod:`judge.judging.hints` recognises mistakes by),
and reruns those calls (float32 objects, more threads, a one-ulp nudge of the inputs, the other code paths):
a hint whose stored output does not recognise its own mistake everywhere rejects the case (H1). Declared
submissions are the author's own code, trusted like the reference.
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
from judge.author.codepaths import code_paths, imports_numpy
from judge.author.fragility import ERROR, Finding, HazardWatch
from judge.author.leaks import find_leaks
from judge.author.reference import (call_one, call_reference, load_mistakes, load_reference, mistake_paths,
                                    objects_for, threads, unrounded)
from judge.author.rerun import Elsewhere, everywhere
from judge.author.stability import (Recognised, drift_report, elsewhere_mistakes, elsewhere_outputs, largest_drift,
                                    mistake_runs, plain, unstable_hints)
from judge.judging.compare import compare
from judge.machine import torch_version
from judge.package.build import build_objects, checksum, resolve_args, seeded
from judge.package.cases import Case, save_case, tag_nonfinite
from judge.package.domain import broken
from judge.package.problem import Problem
from judge.package.tolerance import Tolerance

PARALLEL_THREADS = 4
PERMUTATION_SEED = 12345
Log = Callable[[str], None]


@dataclass
class Checked:
    """A case's expected outputs (None when the reference failed) and what the checks found."""

    expected: list[Any] | None
    findings: list[Finding] = field(default_factory=list)
    mistakes: list[dict[str, Any]] = field(default_factory=list)
    """sample cases: where each hinted mistake departs from ``expected``, as :func:`mistake_outputs` finds"""
    drift: dict[str, tuple[float, str, bool]] = field(default_factory=dict)
    """configuration -> the largest share of the tolerance one of its numbers uses, where, and whether it gave
    this machine's own bits (:func:`judge.author.stability.drift_report`)"""

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
        try:
            with seeded():
                pairs = probe(*args)
        except Exception as exc:  # noqa: BLE001 -- the author's own probe failing is a finding, not a crash
            found.append(Finding(ERROR, "G1", messages.say("gen_boundaries_failed", case=case.id, call=index,
                                                           reason=f"{type(exc).__name__}: {exc}")))
            continue
        found += fragility.boundaries(pairs, index)
    return found


def _signature(solution: Any, method: str) -> inspect.Signature | None:
    try:
        return inspect.signature(getattr(solution, method))
    except (TypeError, ValueError):
        return None


@dataclass
class Measured:
    """A case's outputs in process: what :func:`assess` checks, with the outputs of other code paths."""

    expected: list[Any]
    reference: list[Any]
    """unrounded, on float64 objects"""
    variants: dict[str, list[Any]]
    """unrounded, by float32 configuration"""
    hazards: list[Finding]
    mistakes: list[dict[str, Any]]
    mistake_runs: dict[str, Recognised]
    """the stored mistakes' calls rerun, by configuration"""


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


def measure(problem: Problem, module: ModuleType, case: Case, mistakes: dict[str, Any],
            hint_runs: bool = True) -> Measured | Checked:
    """Every output ``case`` needs in process, or the :class:`Checked` of a reference that fails; without
    ``hint_runs``, the mistakes are not rerun (H1 is left to ``judge gen``)."""
    methods = [call["method"] for call in case.calls]
    try:
        expected, reference, variants, hazards = _outputs(problem, module, case)
    except Exception as exc:  # noqa: BLE001 -- the author's reference failing is a finding, not a crash
        return Checked(None, [_reference_failed(module, case, exc)])
    bad = fragility.bad_outputs(case.id, expected, methods)
    if bad:
        return Checked(None, bad)
    stored = [] if case.hidden else plain(mistake_outputs(mistakes, case, expected, problem))
    runs = mistake_runs(mistakes, case, stored, PARALLEL_THREADS) if hint_runs else {}
    return Measured(expected, reference, variants, hazards, stored, runs)


def assess(problem: Problem, module: ModuleType, case: Case, measured: Measured,
           elsewhere: list[Elsewhere] = ()) -> Checked:
    """Every fragility check on what was measured in process and on the other code paths' results."""
    methods = [call["method"] for call in case.calls]
    solution, rules, tolerance = module.Solution(), fragility.guards(problem), problem.tolerance
    args = [call["args"] for call in case.calls]
    signatures = [_signature(solution, method) for method in methods]
    other, moved = elsewhere_outputs(list(elsewhere), checksum(build_objects(case.objects)))
    variants = {**measured.variants, **other}
    runs = {**measured.mistake_runs, **elsewhere_mistakes(list(elsewhere))}
    reference = measured.reference
    return Checked(measured.expected, [
        *moved,
        *fragility.compare_configurations(reference, variants, methods, tolerance),
        *fragility.thresholds(reference, methods, args, signatures, rules, variants),
        *measured.hazards,
        *_boundaries(solution, case),
        *fragility.small_values(measured.expected, methods, tolerance, rules),
        *_outside_domain(problem, case),
        *unstable_hints(measured.mistakes, runs, plain(measured.expected), tolerance),
    ], measured.mistakes, _drift(measured, variants, methods, tolerance))


def _outside_domain(problem: Problem, case: Case) -> list[Finding]:
    """An error for every value of the case that ``[[domain]]`` rules out."""
    return [Finding(ERROR, "domain", messages.say("gen_domain", case=case.id, call=index, where=rule.where,
                                                  value=json.dumps(value), because=rule.because))
            for index, rule, value in broken(problem.domain, case.raw)]


def _drift(measured: Measured, variants: dict[str, list[Any]], methods: list[str],
           tolerance: Tolerance) -> dict[str, tuple[float, str, bool]]:
    """Each configuration's largest drift from float64, and whether it gave the bits of this machine's own run
    in its dtype (float32 with 1 thread, or the float64 reference)."""
    own = {"float32": plain(measured.variants["float32, 1 thread"]), "float64": plain(measured.reference)}
    return {config: (*largest_drift(measured.reference, outputs, methods, tolerance),
                     plain(outputs) == own[config.split(",")[0]]) for config, outputs in variants.items()}


def check_case(problem: Problem, module: ModuleType, case: Case, mistakes: dict[str, Any] | None = None,
               elsewhere: list[Elsewhere] = (), hint_runs: bool = True) -> Checked:
    """The expected outputs of ``case`` and every finding of the fragility checks (H1 for ``mistakes``, by
    pitfall, unless not ``hint_runs``; the other code paths' checks for ``elsewhere``)."""
    measured = measure(problem, module, case, mistakes or {}, hint_runs)
    return measured if isinstance(measured, Checked) else assess(problem, module, case, measured, elsewhere)


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


def _record(case: Case, checked: Checked, device: str) -> dict[str, Any]:
    """The case file with the new checksum and expectations (and, on the CPU, the mistakes of sample cases)."""
    raw = dict(case.raw)
    raw["build_sha256"] = checksum(build_objects(case.objects))
    raw["expected"] = {**raw.get("expected", {}), device: {
        "torch": torch_version(), "settings": _settings(device), "outputs": checked.expected}}
    if device == "cpu":  # hints are matched against the CPU expectations
        raw.pop("mistakes", None)
        if checked.mistakes:
            raw["mistakes"] = tag_nonfinite(checked.mistakes)
    return raw


def _checked_on_cpu(problem: Problem, module: ModuleType, log: Log) -> dict[str, Checked]:
    """Every case checked in process and under every other code path of this CPU, which run meanwhile."""
    paths = mistake_paths(problem)
    mistakes = load_mistakes(paths)
    plan = code_paths(imports_numpy([problem.reference, *paths.values()]))
    log(messages.say("gen_paths", paths=", ".join(p.name for p in plan.paths) or "none", threads=PARALLEL_THREADS))
    for skipped in plan.skipped:
        log(messages.say("gen_path_skipped", path=skipped.name, why=skipped.why))
    with everywhere(problem, plan.paths, paths) as results:
        measured = {case.id: measure(problem, module, case, mistakes) for case in problem.cases}
        elsewhere = results()
    return {case.id: m if isinstance(m, Checked) else assess(problem, module, case, m, elsewhere.get(case.id, []))
            for case in problem.cases for m in [measured[case.id]]}


def record_case(case: Case, checked: Checked) -> None:
    """Write a new case file with the CPU expected values of :func:`check_case`, as :func:`generate` would."""
    save_case(case, _record(case, checked, "cpu"))


def generate(problem: Problem, dry_run: bool = False, log: Log = print, device: str = "cpu") -> list[tuple[str, str]]:
    """Write ``build_sha256`` and ``expected.<device>`` into every sound case; return the rejected ones."""
    torch.set_num_threads(1)
    _force_full_fp32()
    module = load_reference(problem)
    on_cpu = _checked_on_cpu(problem, module, log) if device == "cpu" else {}
    rejected, sound = [], []
    for case in problem.cases:
        if device == "cpu":
            checked, changed = on_cpu[case.id], []
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
        sound.append((case, checked, changed))
    leaked = {leak.case: str(leak) for leak in find_leaks(problem, {c.id: k.expected for c, k, _ in sound}, device)}
    for case, checked, changed in sound:
        if case.id in leaked:  # its expected output could be read before it is asked for: not written
            rejected.append((case.id, leaked[case.id]))
            log(messages.say("gen_rejected", case=case.id, reason=messages.say("gen_leak", leak=leaked[case.id])))
            continue
        if not dry_run:
            save_case(case, _record(case, checked, device))
        note = messages.say("gen_differs", fields=", ".join(changed)) if changed else ""
        log(messages.say("gen_ok", case=case.id, note=note))
    for line in drift_report({case_id: checked.drift for case_id, checked in on_cpu.items()}):
        log(line)
    log(messages.say("gen_summary", slug=problem.slug, kept=len(problem.cases) - len(rejected), rejected=len(rejected)))
    return rejected


def differing_leaves(stored: Any, fresh: Any, problem: Problem) -> list[tuple[str, Any, Any]]:
    """Every leaf (path, stored, fresh) where a stored value fails the problem's comparison against a recomputed
    one; one entry with the path ``(structure)`` and both whole values when their shapes differ."""
    fresh_leaves = {path: value for path, _, value in fragility.leaves(fresh, "")}
    stored_leaves = {path: value for path, _, value in fragility.leaves(stored, "")}
    if set(fresh_leaves) != set(stored_leaves):
        return [("(structure)", stored, fresh)]
    found = []
    for path, want in stored_leaves.items():
        got = fresh_leaves[path]
        if isinstance(want, str) or isinstance(got, str):
            same = want == got
        else:
            same = problem.tolerance.matches(float(got), float(want))
        if not same:
            found.append((path, want, got))
    return found


def same_outputs(stored: list[Any], fresh: list[Any], problem: Problem) -> str | None:
    """The first leaf where a stored expected value fails the problem's comparison against a recomputed one."""
    found = differing_leaves(stored, fresh, problem)
    return found[0][0] if found else None
