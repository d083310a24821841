"""How much does the judge cost on top of the work itself? Prints, per problem, the wall time of
``judge submit`` on the reference solution next to the bare cost of one Python process that imports torch and
calls the reference on the same cases, and their ratio (target: at most 1.3x).

    python benchmarks/submit_bench.py [--repeat 5]

The time-limit calibration is cached before timing, as it is for every submission after the first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from conditions import reported  # this folder: the machine and load, printed with the figures

REPO = Path(__file__).resolve().parents[1]

BARE = """
import importlib.util, sys, torch
torch.set_num_threads(1)
from judge.package.problem import find_problem
from judge.package.build import build_objects, resolve_args
problem = find_problem(sys.argv[1])
spec = importlib.util.spec_from_file_location("reference", problem.reference)
module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)
solution = module.Solution()
for case in problem.cases:
    for call in case.calls:
        getattr(solution, call["method"])(*resolve_args(call["args"], build_objects(case.objects)))
"""


def timed(argv: list[str]) -> float:
    # one thread everywhere, as in the judge's worker, so the bare run pays no thread-pool start-up either
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    start = time.perf_counter()
    subprocess.run(argv, check=False, capture_output=True, cwd=REPO, env=env)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'problem':<24} {'cases':>5} {'bare (s)':>9} {'judge submit (s)':>17} {'ratio':>6}")
    for slug in ("training-diagnostics", "dead-relu-detector"):
        reference = str(REPO / "solutions" / f"{slug}.py")
        judge = [sys.executable, "-m", "judge", "submit", slug, reference, "--format", "json"]
        timed(judge)  # fills the calibration cache
        bare = statistics.median(timed([sys.executable, "-c", BARE, slug]) for _ in range(args.repeat))
        full = statistics.median(timed(judge) for _ in range(args.repeat))
        cases = len(list((REPO / "problems" / slug / "cases").rglob("*.json")))
        print(f"{slug:<24} {cases:>5} {bare:>9.2f} {full:>17.2f} {full / bare:>5.2f}x")


if __name__ == "__main__":
    with reported():
        main()
