"""The GPU check script, rehearsed on the CPU: every step runs and reports, and the differences table
counts what differs between two devices' expectations. On a GPU machine the same script runs with
``CUDA_CHECK_DEVICE=cuda`` (its default)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.support.cli import REPO

SLUG = "training-log-doctor"  # pure JSON: the cheapest problem to regenerate


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "set"
    shutil.copytree(REPO / "problems" / SLUG, root / "problems" / SLUG)
    (root / "solutions").mkdir()
    shutil.copy(REPO / "solutions" / f"{SLUG}.py", root / "solutions")
    return root


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(folder)).encode() + path.read_bytes())
    return h.hexdigest()


@pytest.mark.slow
def test_the_script_runs_every_step_on_a_copy(tmp_path):
    root, out = _copy(tmp_path), tmp_path / "out"
    bundled = _digest(REPO / "problems")
    env = {**os.environ, "CUDA_CHECK_DEVICE": "cpu", "CUDA_CHECK_INSTALL": "0", "CUDA_CHECK_SLUGS": SLUG,
           "JUDGE_PROBLEMS": str(root / "problems"), "JUDGE_SOLUTIONS": str(root / "solutions"),
           "JUDGE_CACHE": str(tmp_path / "cache"), "OUT": str(out), "PYTHON": sys.executable}
    result = subprocess.run(["bash", str(REPO / "benchmarks" / "cuda_check.sh")], env=env, capture_output=True,
                            text=True, timeout=1200)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    summary = (out / "summary.md").read_text()
    assert f"| {SLUG} |" in summary and "failed steps: none" in summary
    assert "ok  01-reference: declared accepted, judged accepted" in (out / "log.txt").read_text()
    with tarfile.open(out / "cases.tar.gz") as archive:
        assert any(f"{SLUG}/cases/hidden/" in name and name.endswith(".json") for name in archive.getnames())
    assert _digest(REPO / "problems") == bundled  # the script wrote into the copy it was pointed at, nowhere else


def test_the_differences_table_counts_fields_per_threshold(tmp_path, monkeypatch):
    root = _copy(tmp_path)
    case = root / "problems" / SLUG / "cases" / "sample" / sorted(
        p.name for p in (root / "problems" / SLUG / "cases" / "sample").iterdir())[0]
    raw = json.loads(case.read_text())
    cuda = json.loads(json.dumps(raw["expected"]["cpu"]))
    numbers = [(i, k) for i, out in enumerate(cuda["outputs"]) if isinstance(out, dict)
               for k, v in out.items() if type(v) is float]
    (i, key), (j, other) = numbers[0], numbers[1]
    cuda["outputs"][i][key] += 1e-5      # above 1e-6, within the tolerance
    cuda["outputs"][j][other] += 0.5     # beyond the tolerance
    raw["expected"]["cuda"] = cuda
    case.write_text(json.dumps(raw))
    monkeypatch.setenv("JUDGE_PROBLEMS", str(root / "problems"))
    monkeypatch.setenv("JUDGE_SOLUTIONS", str(root / "solutions"))
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from cuda_differences import report
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    table = report([SLUG], "cuda")
    row = next(line for line in table.splitlines() if line.startswith(f"| {SLUG} |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[2:4] == ["2", "1"], table
