"""How heavy is each problem? Prints, per problem, the reference solution's CPU time per case, timed through the
judge's own worker exactly as the time limits are calibrated (median of 3 runs per case), next to the CPU-time
limits the judge derives from it (``max(time_floor_s, time_multiplier x reference)``), so that the heavier problems
can be seen to stay within seconds per submission.

    python benchmarks/reference_times.py [SLUG ...]

Times are measured afresh in a cache folder of this run's own, never read from (or written to) the user's cache.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile

from conditions import reported  # this folder: the machine and load, printed with the figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", help="problems to time (default: every problem found)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="judge-bench-cache-") as cache:
        os.environ["JUDGE_CACHE"] = cache  # read by judge.places when the times are stored
        from judge.judging.calibrate import reference_times
        from judge.judging.limits import case_limits
        from judge.package.problem import available, find_problem

        print(f"{'problem':26} {'cases':>5} {'median ms':>9} {'max ms':>7} {'total s':>7}   "
              f"{'limit s (min-max)':>17} {'floor':>5} {'x':>4}")
        for slug in args.slugs or available():
            problem = find_problem(slug)
            times = reference_times(problem, "cpu")
            limits = [c.cpu_s for c in case_limits(problem, problem.cases, times)]
            values = list(times.values())
            print(f"{slug:26} {len(values):5} {1000 * statistics.median(values):9.1f} {1000 * max(values):7.1f} "
                  f"{sum(values):7.2f}   {min(limits):8.2f}-{max(limits):<8.2f} "
                  f"{problem.limits.time_floor_s:5.1f} {problem.limits.time_multiplier:4.1f}")


if __name__ == "__main__":
    with reported():
        main()
