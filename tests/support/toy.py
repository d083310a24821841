"""The toy problem: a copy of training-diagnostics with a few small cases and tighter limits, built in a folder."""

from __future__ import annotations

import fcntl
import hashlib
import json
import re
import shutil
from pathlib import Path

from tests.support.cli import REPO, SLUG, run_judge

TOY_MEMORY_MB = 700


def mlp_case(title: str, seed: int, batch: int) -> dict:
    """A case on a small seeded ReLU MLP that calls both statistics methods."""
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
    "sample/01-small": mlp_case("a small ReLU MLP", 10, 8),
    "hidden/01-six": mlp_case("batch of six", 20, 6),
    "hidden/02-five": mlp_case("batch of five", 30, 5),
}
MIXED_CASES = {**TOY_CASES, "hidden/03-gradients-only": {
    **mlp_case("gradient statistics alone", 40, 7), "calls": mlp_case("", 40, 7)["calls"][1:]}}
"""the toy's cases and one that calls compute_gradient_stats alone: a method's failures can cost its cases only"""


_KEPT: list[Path] = []
"""the folder where built toys are kept for every pytest-xdist worker of the run, once set (:func:`keep_builds_in`)"""


def keep_builds_in(folder: Path) -> None:
    """Keep each toy built from now on in ``folder`` (shared by the run's workers), and copy it from there when
    the same toy is asked for again: ``judge gen`` runs once per toy and run, not once per worker and fixture."""
    _KEPT[:] = [folder]


def build_toy(root: Path, cases: dict[str, dict], memory_mb: int, time_floor_s: float | None = None) -> Path:
    """A copy of training-diagnostics in ``root`` with only ``cases`` and tighter limits, expected values generated
    (or copied from the same toy built earlier in this run, :func:`keep_builds_in`)."""
    if not _KEPT:
        return _build(root, cases, memory_mb, time_floor_s)
    key = hashlib.sha256(json.dumps([cases, memory_mb, time_floor_s], sort_keys=True).encode()).hexdigest()[:16]
    built = _KEPT[0] / key
    with open(_KEPT[0] / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one worker builds it, another waits and copies
        if not (built / "built").exists():
            shutil.rmtree(built, ignore_errors=True)
            _build(built, cases, memory_mb, time_floor_s)
            (built / "built").touch()
    for folder in ("problems", "solutions"):
        shutil.copytree(built / folder, root / folder)
    return root


def _build(root: Path, cases: dict[str, dict], memory_mb: int, time_floor_s: float | None) -> Path:
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
