"""Benchmark ``judge grade`` against a plain loop of ``judge submit``, on a class built from declared submissions.

    python benchmarks/grade_bench.py [--slug training-diagnostics] [--count 200] [--jobs N] [--loop-sample 24]

The class: copies of the problem's declared submissions (``problems/<slug>/submissions/<verdict>/*.py``), each
made unique by a comment so every student has their own content hash, plus variants built from them: a hard
crash (``os._exit`` on batch-of-one inputs, so a worker dies and is replaced), a syntax error, and a few slow
ones (an endless loop, stopped by the time limit). ``judge grade`` judges all of them; the loop runs
``judge submit`` once per file on a stratified sample (``--loop-sample 0``: every file) and extrapolates per
category, which the output says. Both are run the way a user would, as separate commands, after one untimed
``judge submit`` has calibrated the time limits.

"Solutions' compute" is the CPU time the judge measured for the calls themselves (the reports' per-case
``execution_time``; it includes building each call's model and tensors): over every case for ``judge grade``,
whose instructor's copies (``instructor.json``) keep the hidden cases' figures exact, and over the sample cases
only for the loop, whose reports give hidden cases' figures in quarters of their limits, so that the loop's
hidden compute counts as its overhead (an upper bound). Everything else is overhead:
interpreter and torch start-up, forks, the warm-up call, protocol round trips, ``/proc`` polling, comparing,
writing reports. The run's fixed cost (the judge's own start, one zygote per job slot importing torch) is
measured by grading one unreadable file per job slot (each slot starts its zygote, no worker is forked)
and shown apart from the marginal cost per submission. CPU figures include every process a command started (a
cgroup's ``cpuacct.usage`` where the benchmark may make one, else ``RUSAGE_CHILDREN``), so they do not depend on
what else the machine runs; wall figures do.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from conditions import reported  # this folder: the machine and load, printed with the figures

REPO = Path(__file__).resolve().parents[1]
CRASH = """
    def compute_gradient_stats(self, model, x, *rest):
        import os
        if x.shape[0] == 1:
            os._exit(3)
        return self._uncrashed_compute_gradient_stats(model, x, *rest)

    def _uncrashed_compute_gradient_stats("""
SLOW = """
    def compute_activation_stats(self, *args):
        while True:
            pass

    def _unreached_compute_activation_stats("""
MIX = (("accepted", 0.45), ("wrong_answer", 0.42), ("runtime_error", 0.06), ("hard_crash", 0.04),
       ("syntax_error", 0.01), ("slow", 0.02))
"""category and share of the class"""


def _sources(slug: str) -> dict[str, list[str]]:
    declared = REPO / "problems" / slug / "submissions"
    by_verdict = {d.name: [p.read_text() for p in sorted(d.glob("*.py"))] for d in declared.iterdir() if d.is_dir()}
    accepted = by_verdict["accepted"]
    return {
        "accepted": accepted,
        "wrong_answer": by_verdict.get("wrong_answer", []),
        "runtime_error": by_verdict.get("runtime_error", []),
        "hard_crash": [s.replace("\n    def compute_gradient_stats(", CRASH, 1) for s in accepted],
        "syntax_error": [s.replace("class Solution:", "class Solution(:", 1) for s in accepted],
        "slow": [s.replace("\n    def compute_activation_stats(", SLOW, 1) for s in accepted],
    }


def build_class(slug: str, count: int, folder: Path) -> dict[str, list[Path]]:
    """``count`` unique submissions in ``folder``, by category."""
    sources = {k: v for k, v in _sources(slug).items() if v}
    shares = [(k, share) for k, share in MIX if k in sources]
    sizes = [max(1, round(count * share / sum(s for _, s in shares))) for _, share in shares]
    sizes[0] += count - sum(sizes)
    files: dict[str, list[Path]] = {}
    for (category, _), size in zip(shares, sizes):
        files[category] = []
        for i in range(size):
            path = folder / f"{category}-{i:03d}.py"
            path.write_text(sources[category][i % len(sources[category])] + f"\n# student {category}-{i:03d}\n")
            files[category].append(path)
    return files


ENV = dict(os.environ)
"""Both sides at the strongest level this machine gives (``JUDGE_MAX_LEVEL`` caps it), the level grading really
runs at; the output names it. Under L2 bubblewrap's outer process exits without reaping the processes of its
PID namespace, so ``RUSAGE_CHILDREN`` misses their CPU time: :func:`timed` counts it in a cgroup instead."""


CPUACCT = Path("/sys/fs/cgroup/cpuacct")
"""cgroup v1 CPU accounting: counts every process a command starts, also those bubblewrap's PID namespace never
lets ``RUSAGE_CHILDREN`` see (see :data:`ENV`); used when this process may make a group there (root)"""


def _cpu_group() -> Path | None:
    group = CPUACCT / f"grade-bench-{os.getpid()}-{time.monotonic_ns()}"
    try:
        group.mkdir()
    except OSError:
        return None
    return group


def _group_cpu(group: Path) -> float:
    """The group's CPU seconds once its last process has ended (bubblewrap's may outlive the command a moment)."""
    deadline = time.monotonic() + 10
    while (group / "cgroup.procs").read_text().strip() and time.monotonic() < deadline:
        time.sleep(0.05)
    cpu = int((group / "cpuacct.usage").read_text()) / 1e9
    group.rmdir()
    return cpu


def timed(argv: list[str]) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall seconds, CPU seconds of the command and everything it started, and the result."""
    group = _cpu_group()
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
    enter = (lambda: (group / "cgroup.procs").write_text(str(os.getpid()))) if group else None
    result = subprocess.run(argv, capture_output=True, text=True, env=ENV, preexec_fn=enter)
    wall, after = time.monotonic() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    if group is None:
        return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), result
    return wall, _group_cpu(group), result


def compute_s(report: dict) -> float:
    """The calls' CPU time over the cases whose figures a report gives exactly: every case of an instructor's copy
    (``instructor.json``), the sample cases of a student's report (a hidden case's are in quarters of its limit,
    so that they carry back nothing of its inputs); a case nothing was measured on costs nothing."""
    return sum(test.get("execution_time", 0.0) for test in report["tests"] if not test["extra_data"].get("coarse"))


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--slug", default="training-diagnostics")
    args.add_argument("--count", type=int, default=200)
    args.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    args.add_argument("--loop-sample", type=int, default=24, help="files the loop judges (0: all)")
    args.add_argument("--keep", action="store_true", help="keep the class and the grade output")
    opts = args.parse_args()
    judge = [sys.executable, "-m", "judge"]
    work = Path(tempfile.mkdtemp(prefix="grade-bench-"))
    (work / "class").mkdir()
    files = build_class(opts.slug, opts.count, work / "class")
    everything = [p for paths in files.values() for p in paths]
    reference = REPO / "solutions" / f"{opts.slug}.py"
    subprocess.run([*judge, "submit", opts.slug, str(reference)], capture_output=True, check=False)  # calibrate

    grade_wall, grade_cpu, result = timed([*judge, "grade", opts.slug, str(work / "class"), "--out",
                                           str(work / "out"), "--jobs", str(opts.jobs)])
    if result.returncode != 0:
        sys.exit(f"judge grade failed ({result.returncode}): {result.stderr.strip()}")
    (work / "fixed").mkdir()
    for slot in range(opts.jobs):  # binary files: every slot starts its zygote, no worker is forked
        (work / "fixed" / f"binary-{slot}.py").write_bytes(b"\0")
    _, fixed_cpu, _ = timed([*judge, "grade", opts.slug, str(work / "fixed"), "--out", str(work / "fixed-out"),
                             "--jobs", str(opts.jobs)])
    students = work / "out" / "students"
    graded = {p.stem: json.loads((students / p.stem / "results.json").read_text()) for p in everything}
    exact = {p.stem: json.loads((students / p.stem / "instructor.json").read_text()) for p in everything}

    rng = random.Random(0)
    sample_size = opts.loop_sample or len(everything)
    sample: dict[str, list[Path]] = {}
    for category, paths in files.items():
        share = max(2, round(sample_size * len(paths) / len(everything)))
        sample[category] = paths if not opts.loop_sample else rng.sample(paths, min(len(paths), share))
    loop_wall: dict[str, list[float]] = defaultdict(list)
    loop_computes: dict[str, list[float]] = defaultdict(list)
    loop_cpu = loop_compute = 0.0
    mismatches = []
    for category, paths in sample.items():
        for path in paths:
            wall, cpu, run = timed([*judge, "submit", opts.slug, str(path), "--format", "json"])
            report = json.loads(run.stdout)
            loop_wall[category].append(wall)
            loop_computes[category].append(compute_s(report))
            loop_cpu, loop_compute = loop_cpu + cpu, loop_compute + compute_s(report)
            if report["verdict"] != graded[path.stem]["verdict"]:
                mismatches.append(f"{path.name}: submit {report['verdict']}, grade {graded[path.stem]['verdict']}")
    judged = sum(len(p) for p in sample.values())
    loop_total = sum(len(files[c]) * sum(w) / len(w) for c, w in loop_wall.items())
    loop_cpu_total = loop_cpu * len(everything) / judged  # CPU extrapolated by file count, a rough figure

    n, jobs = len(everything), opts.jobs
    compute = sum(compute_s(r) for r in exact.values())  # every case, measured (the loop's: its samples only)
    print(f"class: {n} submissions of {opts.slug}: " + ", ".join(f"{c} {len(p)}" for c, p in files.items()))
    print(f"judge grade --jobs {jobs}")
    print(f"security level: {next(iter(graded.values()))['judge']['security_level']}")
    loop_note = "all files" if not opts.loop_sample else f"{judged} sampled files, extrapolated per category"
    rows = [
        ("", "judge grade", f"loop of judge submit ({loop_note})"),
        ("total wall", f"{grade_wall:.1f} s", f"{loop_total:.1f} s"),
        ("wall per submission", f"{grade_wall / n * 1000:.0f} ms", f"{loop_total / n * 1000:.0f} ms"),
        ("total CPU (all processes)", f"{grade_cpu:.1f} s", f"~{loop_cpu_total:.1f} s"),
        ("speed-up (wall)", f"{loop_total / grade_wall:.1f}x", "1x"),
        ("solutions' compute", f"{compute:.2f} s ({compute / n * 1000:.0f} ms per submission)",
         f"{loop_compute / judged * 1000:.0f} ms per submission"),
        ("overhead per submission, CPU", f"{(grade_cpu - compute) / n * 1000:.0f} ms",
         f"~{(loop_cpu - loop_compute) / judged * 1000:.0f} ms"),
        ("  of which once per run (start-up, zygotes)", f"{fixed_cpu:.1f} s = {fixed_cpu / n * 1000:.0f} ms",
         ""),
        ("  marginal, per submission", f"{(grade_cpu - fixed_cpu - compute) / n * 1000:.0f} ms", ""),
        (f"overhead per submission, wall x {jobs} jobs", f"{(grade_wall * jobs - compute) / n * 1000:.0f} ms",
         f"{(loop_total - compute) / n * 1000:.0f} ms (1 job)"),
    ]
    for label, ours, theirs in rows:
        print(f"  {label:44s} {ours:38s} {theirs}")
    print("per category, mean per submission: solutions' compute (grade), wall and compute (submit)")
    for category, paths in files.items():
        computes = [compute_s(exact[p.stem]) for p in paths]
        loop_mean = sum(loop_wall[category]) / len(loop_wall[category])
        loop_compute_mean = sum(loop_computes[category]) / len(loop_computes[category])
        print(f"  {category:14s} n={len(paths):3d}  grade (compute {sum(computes) / len(computes) * 1000:5.0f} ms)"
              f"   submit {loop_mean * 1000:6.0f} ms (compute {loop_compute_mean * 1000:5.0f} ms)")
    print(f"verdicts: grade and submit agree on {judged - len(mismatches)} of {judged} sampled files"
          + "".join(f"\n  MISMATCH {m}" for m in mismatches))
    if opts.keep:
        print(f"kept: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    with reported():
        main()
