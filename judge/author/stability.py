"""What ``judge gen`` stores, measured again elsewhere: how far it moves, and whether its hints still hold.

The configurations are those :mod:`judge.author.generate` runs in process (float32 with 1 and 4 threads, a
permuted batch) and the code paths :mod:`judge.author.rerun` runs in workers of their own. Three checks read
them:

* ``build``: the case's objects must build to the same bits on every path (they are made in float64 and cast,
  ``docs/numerics.md`` §2), or no stored value can be trusted anywhere else;
* R1 to R3 (:func:`judge.author.fragility.compare_configurations`) on every path's outputs, in float32 and in
  float64, and :func:`largest_drift` for the log: the share of the tolerance each configuration uses;
* H1 (:func:`unstable_hints`): a hint rests on its mistake's stored output, which the judge matches to a learner's
  by :func:`judge.judging.hints.carries`. Wherever the same declared mistake, rerun (float32 objects as the
  judge hands them over, more threads, other kernels), is no longer matched by the stored output, a learner
  who makes that mistake on another machine would not get the hint: the case is rejected, and the hint must
  go or the sample must tell the mistake apart by outputs that do not move.
"""

from __future__ import annotations

import json
import math
from typing import Any

import torch
from torch import nn

from judge import messages
from judge.author.fragility import ERROR, Finding, _flat, _is_number
from judge.author.reference import Objects, call_one, threads
from judge.author.rerun import Elsewhere
from judge.package.cases import Case
from judge.judging.compare import compare
from judge.judging.hints import carries
from judge.package.tolerance import Tolerance

Recognised = dict[tuple[str, int], Any]
"""one configuration's run of each hinted mistake, by (pitfall, call); a call where it raised is absent"""
_ABSENT = object()
NUDGE_SEED = 2718
NUDGE = 2.0 ** -23
"""one float32 ulp, relative: what another kernel's first rounding of an input can be"""


def plain(value: Any) -> Any:
    """``value`` as a case file gives it back (tuples are lists): what the judge compares."""
    return json.loads(json.dumps(value))


def _nudge(tensor: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Every finite nonzero entry one ulp up or down at random; zeros and infinities, which every machine keeps
    exact, stay (and so does an entry the nudge would overflow)."""
    sign = torch.randint(0, 2, tensor.shape, generator=generator, dtype=torch.float64) * 2 - 1
    moved = (tensor.detach().double() * (1 + sign * NUDGE)).to(tensor.dtype)
    return torch.where(torch.isfinite(moved), moved, tensor.detach())


def nudged(objects: Objects) -> Objects:
    """The objects with every floating tensor, parameter, buffer and stale gradient nudged (:func:`_nudge`).

    Another machine builds the same bits (the checksum sees to that) but rounds every operation after that its
    own way; an output that follows round-off moves as much under this one-ulp change of its inputs. It is how
    a hint resting on round-off is seen on a machine whose own code paths happen to agree with each other."""
    generator = torch.Generator().manual_seed(NUDGE_SEED)
    out = {}
    for name, obj in objects.items():
        if isinstance(obj, nn.Module):
            with torch.no_grad():
                for tensor in [*obj.parameters(), *obj.buffers()]:
                    if tensor.is_floating_point():
                        tensor.copy_(_nudge(tensor, generator))
                        if tensor.grad is not None:
                            tensor.grad.copy_(_nudge(tensor.grad, generator))
        elif isinstance(obj, torch.Tensor) and obj.is_floating_point():
            obj = _nudge(obj, generator).requires_grad_(obj.requires_grad)
        out[name] = obj
    return out


def mistake_runs(mistakes: dict[str, Any], case: Case, stored: list[dict[str, Any]],
                 parallel: int) -> dict[str, Recognised]:
    """The stored mistakes' calls rerun in process: on float32 objects, as the judge hands them over, with 1 and
    with ``parallel`` threads, and on float64 objects (as stored) with every input nudged (:func:`nudged`)."""
    configs = [(f"float32 objects, {n} thread{'s' if n > 1 else ''}", torch.float32, n, lambda o: o) for n in (1, parallel)]
    configs.append(("float64 objects, every input one ulp away", torch.float64, 1, nudged))
    runs: dict[str, Recognised] = {}
    for config, dtype, count, transform in configs:
        runs[config] = found = {}
        with threads(count):
            for entry in stored:
                pitfall, index = entry["pitfall"], entry["call"]
                try:
                    found[pitfall, index] = plain(call_one(mistakes[pitfall], case, case.calls[index], dtype,
                                                           transform=transform))
                except Exception:  # noqa: BLE001 -- a mistake that raises here is not recognised here (H1)
                    pass
    return runs


def largest_drift(reference: list[Any], outputs: list[Any], methods: list[str],
                  tolerance: Tolerance) -> tuple[float, str]:
    """The largest ``|x - x_ref|`` over the numbers of one configuration's outputs, as a share of the tolerance
    at ``x_ref`` (R2 allows a quarter), and where; ``(0.0, "")`` when no number moved."""
    ref, got = _flat(reference, methods), _flat(outputs, methods)
    worst = (0.0, "")
    for path, (_, _, want) in ref.items():
        value = got.get(path, (None, None, None))[2]
        if _is_number(value) and _is_number(want) and math.isfinite(value) and math.isfinite(want):
            worst = max(worst, (abs(float(value) - float(want)) / tolerance.bound(float(want)), path))
    return worst


def elsewhere_outputs(elsewhere: list[Elsewhere], built: str) -> tuple[dict[str, list[Any]], list[Finding]]:
    """Every path's outputs as configurations (``float32, MKL_CBWR=COMPATIBLE``), and the findings of the paths
    that built other objects or where the reference failed."""
    variants, found = {}, []
    for run in elsewhere:
        if run.build_sha256 != built:
            found.append(Finding(ERROR, "build", messages.say("gen_build_moves", path=run.path)))
            continue
        for dtype, outputs in run.outputs.items():
            if outputs is None:
                found.append(Finding(ERROR, "reference", messages.say("gen_reference_elsewhere", path=run.path, dtype=dtype)))
            else:
                variants[f"{dtype}, {run.path}"] = outputs
    return variants, found


def elsewhere_mistakes(elsewhere: list[Elsewhere]) -> dict[str, Recognised]:
    """Every path's runs of the hinted mistakes, on float64 and float32 objects, as configurations."""
    runs: dict[str, Recognised] = {}
    for run in elsewhere:
        for pitfall, by_dtype in run.mistakes.items():
            for dtype, outputs in by_dtype.items():
                recognised = runs.setdefault(f"{dtype} objects, {run.path}", {})
                recognised.update({(pitfall, i): out for i, out in enumerate(outputs) if out is not None})
    return runs


def _moved(got: Any, stored: Any, tolerance: Tolerance) -> str:
    differences = compare(got, stored, tolerance=tolerance).differences
    if not differences:
        return "it no longer departs from the expected output"
    first = differences[0]
    more = f" (and {len(differences) - 1} more)" if len(differences) > 1 else ""
    return f"{first.field} is {first.expected!r} here but {first.got!r}{more}"


def unstable_hints(stored: list[dict[str, Any]], runs: dict[str, Recognised], expected: list[Any],
                   tolerance: Tolerance) -> list[Finding]:
    """H1: one error per hinted pitfall whose stored output does not recognise its mistake in every run."""
    found: dict[str, Finding] = {}
    for entry in stored:
        pitfall, call = entry["pitfall"], entry["call"]
        for config, outputs in runs.items():
            if pitfall in found:
                break
            got = outputs.get((pitfall, call), _ABSENT)
            if got is _ABSENT:
                what = "it raises, or returns what a case file cannot hold"
            elif not carries(got, entry["output"], expected[call], tolerance):
                what = _moved(got, entry["output"], tolerance)
            else:
                continue
            found[pitfall] = Finding(ERROR, "H1", messages.say("gen_unstable_hint", pitfall=pitfall, call=call,
                                                               config=config, what=what))
    return list(found.values())


def drift_report(drifts: dict[str, dict[str, tuple[float, str, bool]]]) -> list[str]:
    """One line per configuration over every case (case id -> configuration -> (:func:`largest_drift`, whether
    it gave the same bits as this machine's own run in that dtype)): the largest share of the tolerance it
    used and where, and in how many cases it changed no bit."""
    by_config: dict[str, list[tuple[float, str, str, bool]]] = {}
    for case_id, drift in drifts.items():
        for config, (share, path, same) in drift.items():
            by_config.setdefault(config, []).append((share, case_id, path, same))
    lines = []
    for config, shares in by_config.items():
        share, case_id, path, _ = max(shares)
        where = messages.say("gen_drift_where", case=case_id, path=path) if share else ""
        lines.append(messages.say("gen_drift", config=config, share=f"{share:.1e}", where=where,
                                  same=sum(s for *_, s in shares), cases=len(shares)))
    return lines
