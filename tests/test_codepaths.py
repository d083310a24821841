"""``judge gen`` reruns what it stores under this machine's other code paths, in workers of their own, and
refuses a hint whose stored output moves: a value stored under one path and checked under another."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from judge.author.codepaths import CAPABILITY, CodePath, Machine, code_paths, imports_numpy
from judge.author.generate import check_case, mistake_outputs
from judge.author.reference import call_one, load_mistakes, load_reference
from judge.author.rerun import Rerun
from judge.author.stability import elsewhere_mistakes, mistake_runs, nudged, plain, unstable_hints
from judge.package.build import build_objects, checksum
from judge.package.problem import find_problem
from tests.support.cli import REPO

FINDER = find_problem("backprop-bug-finder")
FLOAT32 = REPO / "problems" / FINDER.slug / "submissions" / "wrong_answer" / "float32-arithmetic.py"
FORWARD = REPO / "problems" / FINDER.slug / "submissions" / "wrong_answer" / "forward-difference.py"
MEASUREMENT = next(c for c in FINDER.samples if c.name == "01-measurement")
SHIPPED = {"0.weight": {"rel_error": 0.002, "verdict": "fail"}, "0.bias": {"rel_error": 0.001, "verdict": "fail"},
           "2.weight": {"rel_error": 0.0026, "verdict": "fail"}, "2.bias": {"rel_error": 1.0, "verdict": "fail"},
           "4.weight": {"rel_error": 0.0008, "verdict": "fail"}, "4.bias": {"rel_error": 0.0457, "verdict": "fail"}}
"""the float32-arithmetic output sample 01 shipped with, computed on an AVX-512 machine: the hint that failed"""


def _names(plan) -> list[str]:
    return [p.name for p in plan.paths]


def test_an_avx2_cpu_reruns_the_generic_kernels_and_says_why_not_avx512():
    plan = code_paths(False, Machine("x86_64", avx2=True, avx512=False, mkl=True, capability="avx2"))
    assert _names(plan) == ["ATEN_CPU_CAPABILITY=default", "MKL_CBWR=COMPATIBLE",
                            "ATEN_CPU_CAPABILITY=default MKL_CBWR=COMPATIBLE"]
    why = {s.name: s.why for s in plan.skipped}
    assert "no AVX512" in why["ATEN_CPU_CAPABILITY=avx512"] and "no AVX-512" in why["MKL_CBWR=AVX512"]
    assert "numpy" in why["OPENBLAS_CORETYPE"]


def test_an_avx512_cpu_also_runs_what_an_avx2_machine_runs():
    plan = code_paths(True, Machine("x86_64", avx2=True, avx512=True, mkl=True, capability="avx512"))
    assert _names(plan) == ["ATEN_CPU_CAPABILITY=default", "ATEN_CPU_CAPABILITY=avx2", "MKL_CBWR=COMPATIBLE",
                            "MKL_CBWR=AVX2", "ATEN_CPU_CAPABILITY=default MKL_CBWR=COMPATIBLE",
                            "OPENBLAS_CORETYPE=Prescott"]
    assert not plan.skipped


def test_an_arm_cpu_without_mkl_has_only_the_scalar_kernels(monkeypatch):
    monkeypatch.delenv(CAPABILITY, raising=False)
    plan = code_paths(True, Machine("aarch64", avx2=False, avx512=False, mkl=False, capability="sve256"))
    assert _names(plan) == ["ATEN_CPU_CAPABILITY=default", "OPENBLAS_CORETYPE=ARMV8"]
    assert [s.name for s in plan.skipped] == ["MKL_CBWR"]


def test_numpy_is_found_where_it_is_imported(tmp_path):
    plain_file, with_numpy = tmp_path / "a.py", tmp_path / "b.py"
    plain_file.write_text("import torch\n")
    with_numpy.write_text("import torch\nfrom numpy.linalg import norm\n")
    assert not imports_numpy([plain_file]) and imports_numpy([plain_file, with_numpy])


def test_a_rerun_runs_in_a_worker_with_the_variable_set():
    """The worker reports torch's scalar kernels, builds the same bits, and returns unrounded outputs."""
    rerun = Rerun(FINDER, CodePath({CAPABILITY: "default"}), {}, cases=[MEASUREMENT.id])
    try:
        capability, results = rerun.results()
    finally:
        rerun.close()
    assert capability == "DEFAULT" and list(results) == [MEASUREMENT.id]
    here = results[MEASUREMENT.id]
    assert here.build_sha256 == checksum(build_objects(MEASUREMENT.objects)) == MEASUREMENT.build_sha256
    assert here.outputs["float64"][2] == MEASUREMENT.outputs("cpu")[2]  # suspect: 2
    assert here.outputs["float32"] is not None and here.mistakes == {}


def _hint_findings(stored: list, runs: dict) -> list[str]:
    return [f.text for f in unstable_hints(stored, runs, plain(MEASUREMENT.outputs("cpu")), FINDER.tolerance)]


def _rerun_mistakes(path: CodePath) -> dict:
    rerun = Rerun(FINDER, path, {"float32-arithmetic": FLOAT32, "forward-difference": FORWARD}, cases=[MEASUREMENT.id])
    try:
        return elsewhere_mistakes([rerun.results()[1][MEASUREMENT.id]])
    finally:
        rerun.close()


@pytest.mark.skipif(not code_paths(numpy=False).paths, reason="this machine offers torch no other code path")
def test_a_hint_stored_under_one_path_is_refused_under_another():
    """Today's failing hint: float32-arithmetic's output, stored with this CPU's own kernels, is not recognised
    by the same mistake under one of the other code paths ``judge gen`` reruns on this machine (on a 2-core AVX2
    EPYC, torch's scalar kernels, ``ATEN_CPU_CAPABILITY=default``; on an AVX-512 Xeon, whose scalar kernels give
    its own bits, MKL's ``MKL_CBWR=COMPATIBLE``); forward-difference's is recognised under every path (its output
    is no round-off)."""
    mistakes = load_mistakes({"float32-arithmetic": FLOAT32, "forward-difference": FORWARD})
    stored = plain(mistake_outputs(mistakes, MEASUREMENT, MEASUREMENT.outputs("cpu"), FINDER))
    assert {m["pitfall"] for m in stored} == {"float32-arithmetic", "forward-difference"}
    forward = [m for m in stored if m["pitfall"] == "forward-difference"]
    for path in code_paths(numpy=False).paths:
        runs = _rerun_mistakes(path)
        assert _hint_findings(forward, runs) == [], path.name
        refused = _hint_findings(stored, runs)
        if refused:
            assert len(refused) == 1 and "float32-arithmetic" in refused[0] and path.name in refused[0]
            return
    pytest.fail("float32-arithmetic's stored output was recognised under every code path of this machine")


@pytest.mark.skipif(Machine.here().avx512, reason="the shipped output was computed with AVX-512 kernels")
def test_the_shipped_hint_is_refused_on_a_cpu_without_avx512():
    """The output sample 01 shipped with, from an AVX-512 machine, does not recognise the same mistake here."""
    mistake = load_mistakes({"float32-arithmetic": FLOAT32})["float32-arithmetic"]
    shipped = [{"pitfall": "float32-arithmetic", "call": 0, "output": SHIPPED}]
    here = {"this machine": {("float32-arithmetic", 0): plain(call_one(mistake, MEASUREMENT, MEASUREMENT.calls[0]))}}
    refused = _hint_findings(shipped, here)
    assert len(refused) == 1 and "rel_error is 0.00" in refused[0]


def test_a_one_ulp_nudge_refuses_the_hint_even_where_the_code_paths_agree():
    """The nudge of the inputs moves the mistake's round-off on any machine (sample 02's output is the same
    bits under all three of this AVX2 machine's paths, and still another on an AVX-512 one)."""
    mistakes = load_mistakes({"float32-arithmetic": FLOAT32, "forward-difference": FORWARD})
    case = next(c for c in FINDER.samples if c.name == "02-suspect-rule")
    stored = plain(mistake_outputs(mistakes, case, case.outputs("cpu"), FINDER))
    runs = mistake_runs(mistakes, case, stored, 2)
    nudge = {"nudge": runs["float64 objects, every input one ulp away"]}
    refused = unstable_hints(stored, nudge, plain(case.outputs("cpu")), FINDER.tolerance)
    assert [f.text.split()[3] for f in refused] == ["float32-arithmetic"]


def test_the_nudge_keeps_zeros_and_infinities_and_moves_the_rest_by_one_ulp():
    x = torch.tensor([0.0, 1.0, -3.0, float("inf"), torch.finfo(torch.float32).max, 1e-3])
    moved = nudged({"x": x.clone()})["x"]
    assert moved[0] == 0 and moved[3] == float("inf") and torch.isfinite(moved[4])
    ulp = torch.nextafter(x[1:3].abs(), torch.tensor(float("inf"))) - x[1:3].abs()
    steps = (moved[1:3] - x[1:3]).abs() / ulp
    assert ((steps >= 1) & (steps <= 2)).all()  # a relative 2**-23, rounded to float32: one ulp or two


def test_gen_rejects_a_case_whose_hint_moves(tmp_path):
    """The case check itself: with the float32-arithmetic hint (as it shipped), sample 01 is rejected by H1."""
    mistakes = load_mistakes({"float32-arithmetic": FLOAT32})
    checked = check_case(FINDER, load_reference(FINDER), MEASUREMENT, mistakes)
    assert [f.rule for f in checked.errors] == ["H1"] and "float32-arithmetic" in checked.errors[0].text
    stored = json.loads(Path(MEASUREMENT.path).read_text()).get("mistakes", [])
    assert "float32-arithmetic" not in {m["pitfall"] for m in stored}  # and the package no longer ships it
