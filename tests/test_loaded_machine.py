"""A loaded machine does not turn a fast submission into a time-limit verdict: the wall-clock limit (twice the CPU
limit plus a second) does not count the time the worker waited for a CPU, and a sleeping one still meets it.

The judge's own 2-core machine, shared by parallel test suites, ran ``judge verify`` at a load of 15: declared
submissions that use 0.6 s of their 1 s CPU limit were stopped at 3 s of wall time."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from typing import Iterator

import pytest

from judge.worker import procfs
from tests.support.cli import REFERENCE_SOURCE, SLUG, judge_env

CPU = min(os.sched_getaffinity(0))
SPIN = "import time\nend = time.process_time() + {seconds}\nwhile time.process_time() < end:\n    pass\n"


def _on_cpu() -> None:
    os.sched_setaffinity(0, {CPU})


@contextlib.contextmanager
def contention(spinners: int) -> Iterator[None]:
    """``spinners`` busy processes on one CPU, for as long as the block runs, each in a session of its own: the
    scheduler shares a CPU between sessions first (autogroups), and every worker has a session of its own."""
    started = [subprocess.Popen([sys.executable, "-c", "while True: pass"], preexec_fn=_on_cpu, start_new_session=True)
               for _ in range(spinners)]
    try:
        yield
    finally:
        for process in started:
            process.kill()
            process.wait()


def _started(code: str) -> subprocess.Popen:
    """A Python process on the contended CPU, once it has started (it says so before running ``code``)."""
    process = subprocess.Popen([sys.executable, "-c", f"print('ready', flush=True)\n{code}"],
                               stdout=subprocess.PIPE, text=True, preexec_fn=_on_cpu)
    assert process.stdout.readline() == "ready\n"
    return process


def test_waiting_for_a_cpu_is_measured_and_sleeping_is_not():
    with contention(3):
        busy, sleeper = _started(SPIN.format(seconds=5)), _started("import time\ntime.sleep(5)")
        first = procfs.waited_s(busy.pid), procfs.waited_s(sleeper.pid)
        time.sleep(1.0)
        waited = procfs.waited_s(busy.pid) - first[0], procfs.waited_s(sleeper.pid) - first[1]
        for process in (busy, sleeper):
            process.kill()
            process.wait()
    assert waited[0] > 0.4  # a quarter of one CPU or less: three quarters of the second spent waiting
    assert waited[1] < 0.05


SPINNING = REFERENCE_SOURCE + f"""

_measured = Solution.compute_activation_stats


def _spinning(self, *args):
    {SPIN.format(seconds=0.6).replace(chr(10), chr(10) + "    ")}
    return _measured(self, *args)


Solution.compute_activation_stats = _spinning
"""
"""the reference, with 0.6 s of CPU spent at the start of every ``compute_activation_stats`` call"""


@pytest.mark.timeout(400)
def test_a_submission_within_its_cpu_limit_is_accepted_on_a_loaded_cpu(toy_root, tmp_path):
    """Six processes on one CPU: 0.6 s of CPU takes about 3.6 s, over the 3 s wall-clock limit, all of it but
    0.6 s spent waiting; the submission is accepted, and its report shows the CPU it used."""
    source = tmp_path / "spins.py"
    source.write_text(SPINNING)
    with contention(5):
        result = subprocess.run([sys.executable, "-m", "judge", "submit", SLUG, str(source), "--format", "json"],
                                capture_output=True, text=True, env=judge_env(toy_root), preexec_fn=_on_cpu,
                                timeout=360)
    report = json.loads(result.stdout)
    first = report["tests"][0]["extra_data"]
    assert report["verdict"] == "accepted", json.dumps(report["tests"][0])[:1500]
    assert 0.5 < first["cpu_time_s"] < first["time_limit_s"]
