"""The bundled problem packages: sound, reproducible, and their hidden cases catch every declared mistake.

Every check takes its problems from the package index (``available()``) and runs once per problem, so the suite
grows with the problem set; the checks that judge or regenerate a whole package are marked ``slow`` (``.ci/run``
runs them in a second step).
"""

from __future__ import annotations

import importlib.util
import json
import math
import shutil
from pathlib import Path

import pytest

from judge.judging.compare import compare
from judge.package.problem import available, find_problem
from tests.support.cli import REPO, run_judge

SLUGS = available()


MIN_SAMPLES, MIN_HIDDEN = 3, 20


def test_the_index_finds_the_bundled_problems():
    assert SLUGS == sorted(p.parent.name for p in (REPO / "problems").glob("*/problem.toml")) and SLUGS


@pytest.mark.parametrize("slug", SLUGS)
def test_package_shape(slug):
    problem = find_problem(slug)
    hidden = [c for c in problem.cases if c.hidden]
    assert len(problem.samples) >= MIN_SAMPLES and len(hidden) >= MIN_HIDDEN
    declared = problem.declared_submissions()
    assert sum(d.verdict == "accepted" for d in declared) >= 3
    tagged = {d.pitfall for d in declared if d.pitfall}
    assert {p["id"] for p in problem.pitfalls} == tagged
    assert all(d.pitfall for d in declared if d.verdict != "accepted")


def _load(path):
    spec = importlib.util.spec_from_file_location(f"sub_{abs(hash(path))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Solution()


def _outputs(solution, case):
    from judge.package.build import build_objects, resolve_args

    results = []
    for call in case.calls:
        try:
            results.append(getattr(solution, call["method"])(*resolve_args(call["args"], build_objects(case.objects))))
        except Exception as exc:  # noqa: BLE001 -- a crash is one way of being caught
            results.append(exc)
    return results


def _encode(value):
    from judge.worker.main import encode

    return json.loads(json.dumps(encode(value, __import__("numpy"))))


@pytest.mark.timeout(1800)  # a hang guard only: beside two CPU hogs train-and-diagnose's training runs passed 300 s
@pytest.mark.parametrize("slug", SLUGS)
def test_hidden_cases_catch_every_declared_mistake_in_process(slug):
    """Every wrong submission fails at least one *hidden* case, every accepted one passes all (no judge). A wrong
    one is run on the hidden cases only, and only up to the first that catches it: that is all the claim needs."""
    problem = find_problem(slug)
    for declared in problem.declared_submissions():
        solution = _load(declared.path)
        if declared.verdict == "accepted":
            caught = [case.id for case in problem.cases if _catches(problem, solution, case)]
            assert caught == [], f"{declared.path.name} fails {caught}"
        else:
            hidden = (case for case in problem.cases if case.hidden)
            assert any(_catches(problem, solution, case) for case in hidden), \
                f"{declared.path.name} is caught by no hidden case"


def _catches(problem, solution, case) -> bool:
    """Whether ``case`` tells ``solution`` from the reference: an output that raised or compares unequal."""
    return any(isinstance(got, Exception) or not compare(_encode(got), want, tolerance=problem.tolerance).accepted
               for got, want in zip(_outputs(solution, case), case.expected["cpu"]["outputs"]))


@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
def test_verify_judges_every_declared_submission_through_the_real_judge(slug):
    # the mutants are left to tests/test_mutate.py, which judges every problem's with one warm pool (about 5 min)
    result = run_judge(["verify", slug, "--no-mutation"], None, timeout=1200)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert result.stdout.count("\nok  ") == len(find_problem(slug).declared_submissions())


def _copy_bundle(tmp_path) -> Path:
    """A copy of the bundled problems and solutions, for tests that change or regenerate them."""
    root = tmp_path / "copy"
    shutil.copytree(REPO / "problems", root / "problems")
    shutil.copytree(REPO / "solutions", root / "solutions")
    return root


def _copy_and_edit(tmp_path, case_path: str, edit) -> Path:
    """:func:`_copy_bundle`, with one case file changed by ``edit``."""
    root = _copy_bundle(tmp_path)
    case = root / "problems" / case_path
    data = json.loads(case.read_text())
    edit(data)
    case.write_text(json.dumps(data))
    return root


def test_verify_names_a_corrupted_expected_value(tmp_path):
    def corrupt(data):
        data["expected"]["cpu"]["outputs"][0][1] += 0.25

    root = _copy_and_edit(tmp_path, "dead-relu-detector/cases/hidden/02-negative-bias-deep.json", corrupt)
    result = run_judge(["verify", "dead-relu-detector", "--no-submissions"], root)
    assert result.returncode == 1
    errors = [line for line in result.stdout.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "02-negative-bias-deep.json: expected.cpu.outputs[0][1]: stored " in errors[0]
    assert len(errors[0]) < 300 + len(str(root)) and "run 'judge gen dead-relu-detector'" in errors[0]  # what to do
    assert "A problem fails when it has an error" in result.stdout


def test_verify_counts_author_warnings_and_lists_them_when_asked():
    quiet = run_judge(["verify", "backward-signal-flow", "--no-submissions"])
    assert quiet.returncode == 0 and "warning:" not in quiet.stdout
    assert "backward-signal-flow: ok (2 warning(s))" in quiet.stdout and "'judge verify --warnings'" in quiet.stdout
    listed = run_judge(["verify", "backward-signal-flow", "--no-submissions", "--warnings"])
    assert listed.returncode == 0 and listed.stdout.count("\nwarning: ") == 2
    assert "'judge verify --warnings'" not in listed.stdout


def test_verify_names_a_changed_construction(tmp_path):
    def reseed(data):
        data["objects"]["x"]["seed"] += 1

    root = _copy_and_edit(tmp_path, "training-diagnostics/cases/sample/01-healthy-kaiming-mlp.json", reseed)
    result = run_judge(["verify", "training-diagnostics", "--no-submissions"], root)
    assert result.returncode == 1 and "01-healthy-kaiming-mlp.json: build_sha256" in result.stdout


@pytest.mark.parametrize("slug", SLUGS)
def test_statement_examples_come_from_the_sample_files(slug):
    result = run_judge(["statement", slug, "--format", "html"])
    assert result.returncode == 0 and result.stdout.startswith("<!doctype html>")
    problem = find_problem(slug)
    for case in problem.samples:
        assert case.title in result.stdout
        for call, output in zip(case.calls, case.expected["cpu"]["outputs"]):
            assert call["method"] in result.stdout
            shown = json.dumps(output).replace('"', "&quot;")
            assert shown in result.stdout, f"{case.id}: {shown[:80]} not in the statement"


@pytest.mark.slow
@pytest.mark.timeout(1200)  # gen reruns every case under this CPU's other code paths: backprop-bug-finder ~2 min
@pytest.mark.parametrize("slug", SLUGS)
def test_gen_reproduces_the_stored_files_byte_for_byte(tmp_path, slug):
    """The generator, run on a copy, rewrites every case file as stored: byte for byte, but for unrounded float64
    values, which may differ in their last bits on a CPU whose vector kernels sum in another order (a float64
    training loop, train-and-diagnose's losses: 1 to 10 ulps between an AVX2 and an AVX-512 machine). Those must
    agree to 1e-12, far inside every problem's tolerance; everything else (checksums, settings, structure, every
    other number) must be identical."""
    root = _copy_bundle(tmp_path)
    result = run_judge(["gen", slug], root, timeout=1200)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    stored = sorted((REPO / "problems" / slug / "cases").rglob("*.json"))
    assert stored
    for case in stored:
        written = (root / case.relative_to(REPO)).read_bytes()
        if written != case.read_bytes():
            assert _same_but_last_bits(json.loads(written), json.loads(case.read_bytes())), case.name


def _same_but_last_bits(got, want) -> bool:
    if type(got) is float and type(want) is float:
        return math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-300)
    if isinstance(got, dict) and isinstance(want, dict):
        return got.keys() == want.keys() and all(_same_but_last_bits(got[k], want[k]) for k in got)
    if isinstance(got, list) and isinstance(want, list):
        return len(got) == len(want) and all(map(_same_but_last_bits, got, want))
    return type(got) is type(want) and got == want
