"""How fast does ``judge watch`` re-judge a save? Prints, per problem, the wall time of ``judge run`` from the
command line next to a watch re-run (one save judged through the warm fork server), on the reference solution.

    python benchmarks/watch_bench.py [--repeat 5] [SLUG ...]

Target: a re-run well under a second (rustlings' ``watch`` is the anchor). The watcher's first judgement also
starts the warm process and checks that it builds every case bit-identically: printed on its own ("first"),
left out of the median. The watch loop itself adds at most its poll interval (``judge.practice.watch.POLL_S``)
to each re-run; that is printed too. The time-limit calibration is cached before timing; the history goes to a
throw-away folder.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from judge.package.problem import find_problem
from judge.pipeline import Submitted
from judge.practice.watch import POLL_S, Watcher
from conditions import reported  # this folder: the machine and load, printed with the figures

SLUGS = ("training-diagnostics", "dead-relu-detector")


def _cli_run(slug: str, path: Path) -> float:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "judge", "run", slug, str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"judge run {slug} failed: {done.stderr or done.stdout}")
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("slugs", nargs="*", default=list(SLUGS))
    args = parser.parse_args()
    os.environ["JUDGE_HOME"] = tempfile.mkdtemp(prefix="watch-bench-home-")
    print(f"{'problem':<24} {'judge run':>10} {'watch first':>12} {'watch re-run':>13} {'speed-up':>9}")
    for slug in args.slugs:
        problem = find_problem(slug)
        path = Path(tempfile.mkdtemp(prefix="watch-bench-")) / f"{slug}.py"
        path.write_bytes(problem.reference.read_bytes())
        _cli_run(slug, path)  # calibrates the limits once
        cli = statistics.median(_cli_run(slug, path) for _ in range(args.repeat))
        watcher = Watcher(problem)
        try:
            times = []
            for _ in range(args.repeat + 1):
                started = time.monotonic()
                report = watcher.judge(Submitted.read(path))
                times.append(time.monotonic() - started)
                assert report["verdict"] == "accepted", report["verdict"]
        finally:
            watcher.close()
        rerun = statistics.median(times[1:])
        print(f"{slug:<24} {cli:>9.2f}s {times[0]:>11.2f}s {rerun:>12.3f}s {cli / rerun:>8.1f}x")
    print(f"(the watch loop notices a save within {POLL_S:.1f} s: add at most that to a re-run)")


if __name__ == "__main__":
    with reported():
        main()
