"""What the exported ``setup.sh`` does, step by step, without installing anything: with a wheelhouse
beside it, pip gets no index at all; without one, torch comes from the CPU index; either way the judge calibrates
once, at setup, into the folder every submission reads with ``JUDGE_CALIBRATION=pinned``.

``python3`` here is a stand-in that makes a venv whose ``pip`` and ``judge`` only log their arguments, (and ``judge`` makes the calibration folder, as calibrating would), so the test
reads exactly what the script asks of them (the real install runs in ``tests/test_platforms_e2e.py``, slow).
"""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from pathlib import Path

from tests.support.cli import SLUG, run_judge

PYTHON = """#!/bin/sh
[ "$1" = -m ] && [ "$2" = venv ] || exit 0
/bin/mkdir -p "$3/bin" "$3/lib/python3.10/site-packages/judge_bundle"
for tool in pip judge; do
    printf '#!/bin/sh\\necho "%s $*" >> "$SETUP_LOG"\\n[ -z "$JUDGE_CACHE" ] || /bin/mkdir -p "$JUDGE_CACHE"\\n' "$tool" > "$3/bin/$tool"
    /bin/chmod +x "$3/bin/$tool"
done
"""


def _export(toy_root: Path, tmp_path: Path, *options: str) -> Path:
    zipped = tmp_path / "autograder.zip"
    result = run_judge(["export", "gradescope", SLUG, "--out", str(zipped), *options], toy_root)
    assert result.returncode == 0, result.stdout + result.stderr
    source = tmp_path / "autograder" / "source"
    with zipfile.ZipFile(zipped) as archive:
        archive.extractall(source)
    return source


def _setup(source: Path, tmp_path: Path) -> list[str]:
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for tool in ("dirname", "grep", "chmod", "mkdir"):
        (bin_ / tool).symlink_to(shutil.which(tool))
    (bin_ / "python3").write_text(PYTHON)
    (bin_ / "python3").chmod(0o755)
    log = tmp_path / "setup.log"
    found = subprocess.run(["/bin/bash", str(source / "setup.sh"), str(source.parent)], capture_output=True,
                           text=True, env={"PATH": str(bin_), "SETUP_LOG": str(log)}, timeout=120)
    assert found.returncode == 0, found.stdout + found.stderr
    return log.read_text().splitlines()


def test_a_bundled_wheelhouse_installs_with_no_index(toy_root, tmp_path):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (wheels / "torch-2.0.0-py3-none-any.whl").write_bytes(b"a wheel")
    source = _export(toy_root, tmp_path, "--wheelhouse", str(wheels))
    assert (source / "wheelhouse" / "torch-2.0.0-py3-none-any.whl").read_bytes() == b"a wheel"
    pips = [line.split() for line in _setup(source, tmp_path) if line.startswith("pip ")]
    wheel = next(source.glob("*.whl"))
    assert len(pips) == 1 and pips[0][:6] == ["pip", "install", "-q", "--no-index", "--find-links",
                                              str(source / "wheelhouse")]
    assert str(wheel) in pips[0] and any(arg.startswith("torch==") for arg in pips[0])


def test_without_a_wheelhouse_torch_comes_from_the_cpu_index_and_calibration_happens_at_setup(toy_root, tmp_path):
    source = _export(toy_root, tmp_path)
    log = _setup(source, tmp_path)
    pips = [line for line in log if line.startswith("pip ")]
    assert "--index-url https://download.pytorch.org/whl/cpu" in pips[0] and "--no-index" not in " ".join(pips)
    judges = [line for line in log if line.startswith("judge ")]
    assert judges == ["judge doctor", f"judge autograde gradescope --config {source / 'export.json'} --setup"]
    run = (source / "run_autograder").read_text()
    assert "JUDGE_CACHE=/autograder/calibration JUDGE_CALIBRATION=pinned" in run, "submissions read setup's calibration"


def test_a_wheelhouse_without_wheels_is_refused_in_one_line(toy_root, tmp_path):
    result = run_judge(["export", "gradescope", SLUG, "--out", str(tmp_path / "a.zip"), "--wheelhouse",
                        str(tmp_path)], toy_root)
    assert result.returncode != 0 and len(result.stderr.strip().splitlines()) == 1
    assert "no .whl file there" in result.stderr
