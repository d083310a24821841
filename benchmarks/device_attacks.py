"""Hostile submissions that concern the device, judged with ``--device``: each must get its declared verdict.

    python benchmarks/device_attacks.py [--device cuda]

The attacks come from ``tests/adversarial`` (their first line declares the verdict); on a GPU they check that the
CUDA worker still measures time and memory, survives a crash, and accepts the reference. Part of
``benchmarks/cuda_check.sh``.

They are judged on a copy of the problem (every case, with the expectations ``judge gen`` just wrote) whose
memory limit is the tests' toy problem's, for the reason the toy has one: at the problem's own 1536 MB, merely
touching the pages of a memory bomb costs about the problem's 1 s of CPU on a 2-core machine, so ``17-grows``
would end on whichever limit it reached first.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from conditions import reported  # this folder: the machine and load, printed with the figures

REPO = Path(__file__).resolve().parents[1]
ATTACKS = ("01-reference", "12-infinite-loop", "16-huge-tensor", "17-grows", "45-segfault", "21-reads-hidden-cases")
PROBLEM = "training-diagnostics"
MEMORY_MB = 700
"""the tests' toy limit (``TOY_MEMORY_MB`` in ``tests/conftest.py``): memory bombs reach it long before the CPU limit"""


def problem_copy(folder: Path) -> Path:
    """A problem root holding the problem, its memory limit lowered to ``MEMORY_MB``, and its reference."""
    package = folder / "problems" / PROBLEM
    shutil.copytree(REPO / "problems" / PROBLEM, package)
    meta = package / "problem.toml"
    meta.write_text(re.sub(r"memory_mb = \d+", f"memory_mb = {MEMORY_MB}", meta.read_text(encoding="utf-8")),
                    encoding="utf-8")
    (folder / "solutions").mkdir()
    shutil.copy(REPO / "solutions" / f"{PROBLEM}.py", folder / "solutions")
    return folder


def declared(path: Path) -> str:
    return path.read_text(encoding="utf-8").splitlines()[0].removeprefix("# verdict:").strip()


def submission(path: Path, folder: Path) -> Path:
    """The attack as the adversarial suite judges it: ``# base: reference`` puts the reference solution first."""
    text = path.read_text(encoding="utf-8")
    if "# base: reference" in text.split("import", 1)[0]:
        text = (REPO / "solutions" / f"{PROBLEM}.py").read_text(encoding="utf-8") + "\n\n" + text
    target = folder / path.name
    target.write_text(text, encoding="utf-8")
    return target


def judged(path: Path, device: str, root: Path) -> str:
    env = dict(os.environ, JUDGE_PROBLEMS=str(root / "problems"), JUDGE_CACHE=str(root / "cache"))
    result = subprocess.run([sys.executable, "-m", "judge", "submit", PROBLEM, str(path), "--device", device,
                             "--format", "json"], capture_output=True, text=True, timeout=600, env=env)
    try:
        return json.loads(result.stdout)["verdict"]
    except (ValueError, KeyError):
        return f"no report (exit {result.returncode}: {result.stderr.strip()[-200:]})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda")
    args = parser.parse_args()
    wrong = 0
    with tempfile.TemporaryDirectory() as folder:
        root = problem_copy(Path(folder) / "root")
        for name in ATTACKS:
            path = REPO / "tests" / "adversarial" / f"{name}.py"
            want, got = declared(path), judged(submission(path, Path(folder)), args.device, root)
            wrong += want != got
            print(f"{'ok ' if want == got else 'BAD'} {name}: declared {want}, judged {got}")
    return 1 if wrong else 0


if __name__ == "__main__":
    with reported():
        code = main()
    sys.exit(code)
