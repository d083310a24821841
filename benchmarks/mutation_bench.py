"""How fast is mutation testing? Runs ``judge mutate`` on every problem (or those named) with one warm pool of
``--jobs`` slots (default 2, the target machine's cores), and prints per problem the mutants judged, killed and
equivalent, the generated inputs made, the seconds and the mutants per second, then the totals.

    python benchmarks/mutation_bench.py [SLUG ...] [--jobs N] [--max N] [--json DIR]

The zygotes start once, before the clock of the first problem starts (their start-up is printed apart), as in
``judge verify``. The load average before and after is printed too: on a shared machine the figures scale with it.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from conditions import reported  # this folder: the machine and load, printed with the figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", help="problems to mutate (default: every problem found)")
    parser.add_argument("--jobs", type=int, default=2, help="job slots, one zygote each (default: 2)")
    parser.add_argument("--max", type=int, help="at most this many mutants per problem, spread over the file")
    parser.add_argument("--json", type=Path, metavar="DIR", help="also write each problem's run to DIR/<slug>.json")
    args = parser.parse_args()
    from judge.author.mutation.mutant_judge import Pool
    from judge.author.mutation.mutate import EQUIVALENT, KILLED, SURVIVED, mutate
    from judge.errors import JudgeError
    from judge.judging.plan import make_plan
    from judge.package.problem import available, find_problem

    slugs = args.slugs or available()
    print(f"{args.jobs} job slot(s) · {len(slugs)} problem(s)")
    started = time.monotonic()
    with Pool(args.jobs) as pool:
        warm = find_problem(slugs[0])
        pool.first_failures([(make_plan(warm, "submit", "cpu"), "reference", warm.reference.read_text())] * args.jobs)
        print(f"zygotes started and the first plan judged by each: {time.monotonic() - started:.1f} s")
        print(f"{'problem':26} {'mutants':>7} {'killed':>6} {'equiv':>5} {'surv':>4} {'inputs':>6} {'seconds':>8} "
              f"{'mutants/s':>9}")
        total_mutants, total_s = 0, 0.0
        for slug in slugs:
            t = time.monotonic()
            try:
                run = mutate(find_problem(slug), pool, args.max)
            except JudgeError as exc:
                print(f"{slug:26} failed: {exc}", flush=True)
                continue
            seconds = time.monotonic() - t
            if args.json:
                args.json.mkdir(parents=True, exist_ok=True)
                (args.json / f"{slug}.json").write_text(json.dumps(run.as_json(), indent=1))
            total_mutants, total_s = total_mutants + len(run.outcomes), total_s + seconds
            print(f"{slug:26} {len(run.outcomes):7} {run.count(KILLED):6} {run.count(EQUIVALENT):5} "
                  f"{run.count(SURVIVED):4} {run.inputs:6} {seconds:8.1f} {len(run.outcomes) / seconds:9.2f}",
                  flush=True)
    print(f"{'total':26} {total_mutants:7} {'':6} {'':5} {'':4} {'':6} {total_s:8.1f} {total_mutants / total_s:9.2f}")
    print(f"wall time with start-up: {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    with reported():
        main()
