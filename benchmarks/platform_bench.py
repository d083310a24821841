"""What does one submission cost on a course platform, against ``judge submit`` on the same machine? Prints, per
problem, the one-time set-up step (``judge autograde gradescope --setup``: the sandbox check and calibration, as
``setup.sh`` runs it when the image is built), then the median wall time of the per-submission step
(``judge autograde gradescope``, what ``run_autograder`` runs, on the exported ``export.json``, with the
calibration pinned as the image has it) and of ``judge submit`` on the reference, and their ratio (target: at most
2x).

    python benchmarks/platform_bench.py [--repeat 5] [SLUG ...]

Both run this checkout's judge: the exported wheel is the same code, and installing it (``setup.sh``'s pip step)
is timed by the slow end-to-end test instead (``tests/test_platforms_e2e.py``, ``JUDGE_E2E_FIGURES``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from conditions import reported  # this folder: the machine and load, printed with the figures

REPO = Path(__file__).resolve().parents[1]


def timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, check=False, capture_output=True, cwd=REPO, env=env)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stdout.decode()}{done.stderr.decode()}")
    return time.perf_counter() - start


def bench(slug: str, repeat: int, folder: Path) -> None:
    judge = [sys.executable, "-m", "judge"]
    env = {**os.environ, "JUDGE_CACHE": str(folder / "calibration"), "JUDGE_CALIBRATION": "pinned",
           "JUDGE_HOME": str(folder / "home")}
    zipped = folder / "autograder.zip"
    subprocess.run([*judge, "export", "gradescope", slug, "--out", str(zipped), "--allow-weak-sandbox"], check=True,
                   capture_output=True, cwd=REPO, env=env)
    root = folder / "autograder"
    with zipfile.ZipFile(zipped) as archive:
        archive.extractall(root / "source")
    (root / "submission").mkdir()
    reference = REPO / "solutions" / f"{slug}.py"
    (root / "submission" / "solution.py").write_bytes(reference.read_bytes())
    config = str(root / "source" / "export.json")
    setup = timed([*judge, "autograde", "gradescope", "--config", config, "--setup"], env)
    platform = statistics.median(timed([*judge, "autograde", "gradescope", "--config", config, "--root", str(root)],
                                       env) for _ in range(repeat))
    submit = statistics.median(timed([*judge, "submit", slug, str(reference), "--format", "json"], env)
                               for _ in range(repeat))
    print(f"{slug:<24} {setup:>10.2f} {platform:>15.2f} {submit:>17.2f} {platform / submit:>5.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("slugs", nargs="*", default=["dead-relu-detector"])
    args = parser.parse_args()
    print(f"{'problem':<24} {'setup (s)':>10} {'autograde (s)':>15} {'judge submit (s)':>17} {'ratio':>6}")
    for slug in args.slugs:
        with tempfile.TemporaryDirectory() as folder:
            bench(slug, args.repeat, Path(folder))


if __name__ == "__main__":
    with reported():
        main()
