"""Shared fixtures: a small problem package built in a temporary folder, and a way to run the real CLI."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

REPO = Path(__file__).resolve().parents[1]
SLUG = "training-diagnostics"
TOY_MEMORY_MB = 700


def _mlp_case(title: str, seed: int, batch: int) -> dict:
    return {
        "title": title,
        "objects": {
            "model": {"kind": "mlp", "seed": seed, "layers": [
                {"linear": [5, 7], "weight": {"init": "kaiming_normal"}, "bias": {"init": "normal", "std": 0.1}},
                {"act": "relu"},
                {"linear": [7, 3]}]},
            "x": {"kind": "tensor", "seed": seed + 1, "shape": [batch, 5], "init": "normal"},
            "y": {"kind": "tensor", "seed": seed + 2, "shape": [batch, 3], "init": "uniform"},
        },
        "calls": [
            {"method": "compute_activation_stats", "args": ["$model", "$x"]},
            {"method": "compute_gradient_stats", "args": ["$model", "$x", "$y"]},
        ],
    }


TOY_CASES = {
    "sample/01-small": _mlp_case("a small ReLU MLP", 10, 8),
    "hidden/01-six": _mlp_case("batch of six", 20, 6),
    "hidden/02-five": _mlp_case("batch of five", 30, 5),
}
MIXED_CASES = {**TOY_CASES, "hidden/03-gradients-only": {
    **_mlp_case("gradient statistics alone", 40, 7), "calls": _mlp_case("", 40, 7)["calls"][1:]}}
"""the toy's cases and one that calls compute_gradient_stats alone: a method's failures can cost its cases only"""


@pytest.fixture(scope="session", autouse=True)
def judge_home(tmp_path_factory) -> Iterator[Path]:
    """Every judge the tests start records its attempts here, never in the real user's history, and keeps its
    calibrated reference times in a cache of the test session's own, never in the real user's cache."""
    home = tmp_path_factory.mktemp("judge-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUDGE_HOME", str(home))
        patch.setenv("JUDGE_CACHE", str(tmp_path_factory.mktemp("judge-cache")))
        yield home


@pytest.fixture(autouse=True)
def keeps_the_test_process_capabilities() -> Iterator[None]:
    """A test that drops pytest's own capabilities (by running a worker's lock-down in process) would silently
    change every later test: as root without CAP_CHOWN, no worker can be given the sandbox uid. Fail that test."""
    from judge.worker import privileges

    before = privileges.capabilities()
    yield
    assert privileges.capabilities() == before, "this test changed the test process's own capabilities"


def build_toy(root: Path, cases: dict[str, dict], memory_mb: int, time_floor_s: float | None = None) -> Path:
    """A copy of training-diagnostics in ``root`` with only ``cases`` and tighter limits, expected values generated."""
    package = root / "problems" / SLUG
    package.mkdir(parents=True)
    for name in ("starter.py", "statement.md.j2"):
        shutil.copy(REPO / "problems" / SLUG / name, package / name)
    meta = re.sub(r"memory_mb = \d+", f"memory_mb = {memory_mb}", (REPO / "problems" / SLUG / "problem.toml").read_text())
    if time_floor_s is not None:
        meta = re.sub(r"time_floor_s = [\d.]+", f"time_floor_s = {time_floor_s}", meta)
    (package / "problem.toml").write_text(meta)
    (root / "solutions").mkdir()
    shutil.copy(REPO / "solutions" / f"{SLUG}.py", root / "solutions")
    for case_id, case in cases.items():
        path = package / "cases" / f"{case_id}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(case))
    result = run_judge(["gen", SLUG], root)
    assert result.returncode == 0, result.stdout + result.stderr
    return root


@pytest.fixture(scope="session")
def toy_root(tmp_path_factory) -> Path:
    """A copy of training-diagnostics with three small cases (expected values generated here).

    A tighter memory limit, so memory bombs reach it long before the CPU-time limit.
    """
    return build_toy(tmp_path_factory.mktemp("toy"), TOY_CASES, TOY_MEMORY_MB)


@pytest.fixture(scope="session")
def mixed_root(tmp_path_factory) -> Path:
    """The toy with :data:`MIXED_CASES`: three cases call both statistics methods, the last one only the second."""
    return build_toy(tmp_path_factory.mktemp("mixed"), MIXED_CASES, TOY_MEMORY_MB)


def judge_env(root: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    if root is not None:
        env["JUDGE_PROBLEMS"] = str(root / "problems")
        env["JUDGE_CACHE"] = str(root / "cache")
    return env


def run_judge(args: list[str], root: Path | None = None, timeout: float = 600,
              cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run the real command line, as a user would."""
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True, text=True,
                          env=judge_env(root), timeout=timeout, cwd=cwd)


def judge_json(args: list[str], root: Path | None = None) -> tuple[int, dict]:
    result = run_judge([*args, "--format", "json"], root)
    assert result.stdout, result.stderr
    return result.returncode, json.loads(result.stdout)


@pytest.fixture
def write_submission(tmp_path):
    def write(source: str, name: str = "solution.py") -> Path:
        path = tmp_path / name
        path.write_text(source)
        return path
    return write


REFERENCE_SOURCE = (REPO / "solutions" / f"{SLUG}.py").read_text()
