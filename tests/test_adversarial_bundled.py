"""Attacks on what travels around the code, judged on real cases of the bundled problems.

The files of ``tests/adversarial/`` with a ``# problem: <slug>`` header are judged here, on a copy of that bundled
problem with a few of its own cases (:data:`BUNDLED`, with their stored expectations) and a CPU floor of 5 s,
room for an attack that scans its own memory within one call. They are the cases on which each cheat would be
right if its channel were open: in training-diagnostics, a later call's literal is the reference's output of an
earlier call of the same case; in backprop-bug-finder the bugs (a halved weight gradient, a zeroed bias
gradient) fix every answer; in disconnected-parameters a head's wiring fixes its status.

Every attack runs through ``judge submit`` at the strongest level this machine gives and (marked slow) at
``JUDGE_MAX_LEVEL=L1``, and (slow too) each problem's attacks are graded as one class by ``judge grade`` at L2
and L1, with every check of :mod:`tests.support.adversarial`.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import REPO, judge_env
from tests.support.adversarial import EVERY_ATTACK, JUDGE_TIMEOUT_S, grade_class, judge_attack

BUNDLED = {
    "dead-relu-detector": ["sample/01-healthy-kaiming-mlp", "hidden/02-negative-bias-deep",
                           "hidden/10-fix-strict-thresholds", "hidden/15-deep-narrow"],
    "training-diagnostics": ["sample/01-healthy-kaiming-mlp", "hidden/05-half-dead-exact-zeros",
                             "hidden/11-huge-init-exploding", "hidden/13-all-zero-weights"],
    "backprop-bug-finder": ["sample/01-measurement", "hidden/02-weight-half-first",
                            "hidden/05-bias-zero-first-width-one", "hidden/22-single-linear-batch-one",
                            "hidden/26-coarse-eps-correct-layers-fail", "hidden/27-coarse-eps-gelu-tanh-and-halved-weight"],
    "disconnected-parameters": ["sample/02-diagnose-rule-table", "sample/04-every-head-detaches-its-input",
                                "hidden/01-output-detached-head", "hidden/02-unused-head-with-poisoned-stale-grads",
                                "hidden/03-zero-gated-deep-head", "hidden/09-batch-of-one"],
}
"""the cases each bundled problem is judged on here"""
TIME_FLOOR_S = 5.0
ATTACKS = [a for a in EVERY_ATTACK if a.problem is not None]
RUNS = [pytest.param(a, cap, id=a.path.stem + (f"-{cap}" if cap else ""), marks=[pytest.mark.slow] if cap else [])
        for a in ATTACKS for cap in (None, "L1")]
"""every attack at the strongest level in the default run; again at L1, and graded as a class, in the slow one"""


def test_every_attack_here_names_a_problem_with_cases():
    assert {a.problem for a in ATTACKS} == set(BUNDLED)
    for slug, cases in BUNDLED.items():
        assert all((REPO / "problems" / slug / "cases" / f"{case}.json").is_file() for case in cases), slug


def _copy(root: Path, slug: str) -> Path:
    """The problem's package with only its :data:`BUNDLED` cases and a CPU floor of :data:`TIME_FLOOR_S`."""
    source, package = REPO / "problems" / slug, root / "problems" / slug
    shutil.copytree(source, package, ignore=shutil.ignore_patterns("cases", "submissions"))
    meta = package / "problem.toml"
    meta.write_text(re.sub(r"time_floor_s = [\d.]+", f"time_floor_s = {TIME_FLOOR_S}", meta.read_text()))
    for case in BUNDLED[slug]:
        (package / "cases" / case).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source / "cases" / f"{case}.json", package / "cases" / f"{case}.json")
    (root / "solutions").mkdir()
    shutil.copy(REPO / "solutions" / f"{slug}.py", root / "solutions")
    return root


@pytest.fixture(scope="session")
def bundled_roots(tmp_path_factory) -> dict[str, Path]:
    """Each problem's copy, built and calibrated on first use."""
    roots: dict[str, Path] = {}

    def root(slug: str) -> Path:
        if slug not in roots:
            made = _copy(tmp_path_factory.mktemp(slug), slug)
            reference = made / "solutions" / f"{slug}.py"
            calibrate = subprocess.run([sys.executable, "-m", "judge", "submit", slug, str(reference), "--format",
                                        "json"], capture_output=True, text=True, env=judge_env(made),
                                       timeout=JUDGE_TIMEOUT_S)
            assert json.loads(calibrate.stdout)["verdict"] == "accepted", calibrate.stderr
            roots[slug] = made
        return roots[slug]
    return root


@pytest.mark.parametrize("attack, cap", RUNS)
def test_attack_on_a_bundled_problem(attack, cap, bundled_roots, arena):
    judge_attack(attack, cap, bundled_roots(attack.problem), arena, attack.problem)


@pytest.mark.slow
@pytest.mark.parametrize("cap", ["L2", "L1"])
@pytest.mark.parametrize("slug", sorted(BUNDLED))
def test_each_problem_s_attacks_through_judge_grade(slug, cap, bundled_roots, arena, judge_home):
    grade_class(cap, bundled_roots(slug), arena, judge_home, [a for a in ATTACKS if a.problem == slug], slug)
