"""How fast is practising in the browser? Prints, per bundled problem, the wall time of ``judge run`` from the
command line next to Run and Submit through ``judge serve`` (HTTP request to the final result, server-sent
events included), all on the reference solution, and the speed-up of Run over the CLI.

    python benchmarks/serve_bench.py [--repeat 5]

Targets: Run under 0.3 s, Submit under 0.6 s, Run at least 5x faster than ``judge run``. The site's first
judgement of each problem and mode also checks that the warm worker builds every case bit-identically; it is
printed on its own ("first") and left out of the medians. The time-limit calibration is cached before timing,
and the history goes to a throw-away folder.
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

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the site's test client lives with the tests, not in the installed judge

from conditions import reported  # noqa: E402 -- this folder: the machine and load, printed with the figures
from tests.support.client import Client, launched  # noqa: E402

SLUGS = ("training-diagnostics", "dead-relu-detector")


def cli_run(slug: str, reference: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "judge", "run", slug, str(reference), "--format", "json"],
                   capture_output=True, cwd=REPO, env=env, check=False)
    return time.perf_counter() - start


def site(client: Client, slug: str, mode: str, code: str) -> float:
    start = time.perf_counter()
    events = client.judge(slug, mode, code)
    elapsed = time.perf_counter() - start
    if events[-1].get("verdict") != "accepted":
        raise SystemExit(f"{slug} {mode}: the reference was not accepted: {events[-1]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="serve-bench-") as home:
        env = {**os.environ, "JUDGE_HOME": home}
        print(f"{'problem':<22} {'judge run':>9} {'site run':>9} {'(first)':>8} {'site submit':>11} {'(first)':>8}"
              f" {'run speed-up':>12}")
        with launched(env) as client:
            for slug in SLUGS:
                reference = REPO / "solutions" / f"{slug}.py"
                code = reference.read_text(encoding="utf-8")
                cli_run(slug, reference, env)  # fills the calibration cache
                cli = statistics.median(cli_run(slug, reference, env) for _ in range(args.repeat))
                first_run = site(client, slug, "run", code)
                run = statistics.median(site(client, slug, "run", code) for _ in range(args.repeat))
                first_submit = site(client, slug, "submit", code)
                submit = statistics.median(site(client, slug, "submit", code) for _ in range(args.repeat))
                print(f"{slug:<22} {cli:>8.2f}s {run:>8.3f}s {first_run:>7.2f}s {submit:>10.3f}s {first_submit:>7.2f}s"
                      f" {cli / run:>11.1f}x")


if __name__ == "__main__":
    with reported():
        main()
