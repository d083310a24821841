"""How fast is mutation testing, before and after the fast path? Runs ``judge mutate`` on every problem (or those
named) twice, each with one warm pool of ``--jobs`` slots (default 2, the target machine's cores): once with every
mutant judged in confined workers (``Pool(fast=False)``, the way all were judged before the fast path) and once as
``judge mutate`` judges them now (:mod:`judge.author.mutation.trusted_judge` first). It prints per problem the
mutants, killed and equivalent, the seconds and mutants per second of both, their ratio, and whether every mutant
got the same status both ways, then the totals.

    python benchmarks/mutation_bench.py [SLUG ...] [--jobs N] [--max N] [--only fast|confined] [--json DIR]

The pools start once, before the clock of the first problem starts (their start-up is printed apart), as in
``judge verify``. The load average before and after is printed too: on a shared machine the figures scale with it.
"""

from __future__ import annotations

import argparse
import json
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from conditions import reported  # this folder: the machine and load, printed with the figures

MODES = ("confined", "fast")


def _timed(slug: str, pool: Any, most: int | None) -> tuple[Any, float]:
    from judge.author.mutation.mutate import mutate
    from judge.package.problem import find_problem

    started = time.monotonic()
    run = mutate(find_problem(slug), pool, most)
    return run, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", help="problems to mutate (default: every problem found)")
    parser.add_argument("--jobs", type=int, default=2, help="job slots, one zygote each (default: 2)")
    parser.add_argument("--max", type=int, help="at most this many mutants per problem, spread over the file")
    parser.add_argument("--only", choices=MODES, help="time one way only")
    parser.add_argument("--json", type=Path, metavar="DIR", help="also write each run to DIR/<slug>.<mode>.json")
    args = parser.parse_args()
    from judge.author.mutation.mutant_judge import Pool
    from judge.author.mutation.mutate import EQUIVALENT, KILLED
    from judge.errors import JudgeError
    from judge.judging.plan import make_plan
    from judge.package.problem import available, find_problem

    slugs, modes = args.slugs or available(), [args.only] if args.only else list(MODES)
    print(f"{args.jobs} job slot(s) · {len(slugs)} problem(s) · {' and '.join(modes)}")
    started = time.monotonic()
    with ExitStack() as stack:
        pools = {mode: stack.enter_context(Pool(args.jobs, fast=mode == "fast")) for mode in modes}
        warm = find_problem(slugs[0])
        for pool in pools.values():
            pool.first_failures([(make_plan(warm, "submit", "cpu"), "reference", warm.reference.read_text())] * args.jobs)
        print(f"pools started and the first plan judged by each slot: {time.monotonic() - started:.1f} s")
        print(f"{'problem':26} {'mutants':>7} {'killed':>6} {'equiv':>5} "
              + " ".join(f"{m + ' s':>10} {'/s':>6}" for m in modes) + f" {'ratio':>6} {'same':>5}")
        totals = {mode: 0.0 for mode in modes}
        total_mutants = 0
        for slug in slugs:
            try:
                runs = {mode: _timed(slug, pools[mode], args.max) for mode in modes}
            except JudgeError as exc:
                print(f"{slug:26} failed: {exc}", flush=True)
                continue
            run = runs[modes[-1]][0]
            total_mutants += len(run.outcomes)
            for mode, (each, seconds) in runs.items():
                totals[mode] += seconds
                if args.json:
                    args.json.mkdir(parents=True, exist_ok=True)
                    (args.json / f"{slug}.{mode}.json").write_text(json.dumps(each.as_json(), indent=1))
            statuses = [[o.status for o in each.outcomes] for each, _ in runs.values()]
            same = "yes" if all(s == statuses[0] for s in statuses) else "NO"
            ratio = runs["confined"][1] / runs["fast"][1] if len(runs) == 2 else float("nan")
            print(f"{slug:26} {len(run.outcomes):7} {run.count(KILLED):6} {run.count(EQUIVALENT):5} "
                  + " ".join(f"{s:10.1f} {len(run.outcomes) / s:6.2f}" for _, s in runs.values())
                  + f" {ratio:6.1f} {same:>5}", flush=True)
        ratio = totals["confined"] / totals["fast"] if len(totals) == 2 else float("nan")
        print(f"{'total':26} {total_mutants:7} {'':6} {'':5} "
              + " ".join(f"{totals[m]:10.1f} {total_mutants / totals[m]:6.2f}" for m in modes) + f" {ratio:6.1f}")
    print(f"wall time with start-up: {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    with reported():
        main()
