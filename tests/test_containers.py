"""Inside a container with the default profile (emulated by ``tests/support/container_profile.py``: no user or
mount namespaces, a read-only cgroupfs, Docker's capabilities), the judge falls back to L1 and ``judge doctor``
names what blocks each missing layer; the adversarial suite passes there, at the level doctor reports.

In the container the suite runs its default selection: every attack graded as one class by ``judge grade`` at the
container's level, the killed judge and the import error. Each attack through a fresh ``judge submit`` of its own
is the host's slow step (tests/test_adversarial.py, at the strongest level and again at L1 for those that need
it); running all of them again here cost 14 of the slow step's 50 minutes on 2 cores for one code path twice."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.support.cli import REPO

PROFILE = [sys.executable, str(REPO / "tests" / "support" / "container_profile.py")]
pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the emulated container profile needs root")


def _in_container(*argv: str, timeout: float = 300, **options: object) -> subprocess.CompletedProcess:
    return subprocess.run([*PROFILE, *argv], capture_output=True, text=True, timeout=timeout, cwd=REPO, **options)


def _level(doctor: str) -> str:
    return re.search(r"security level, judge run / submit: (L\d)", doctor)[1]


def test_doctor_in_a_container_reports_l1_and_names_the_blockers():
    doctor = _in_container(sys.executable, "-m", "judge", "doctor")
    assert doctor.returncode == 0, doctor.stderr
    assert _level(doctor.stdout) == "L1"
    layers = {line.split("]")[1].split(":")[0].strip(): line for line in doctor.stdout.splitlines()
              if line.startswith("  [")}
    assert layers["Landlock"].startswith("  [x]") and layers["seccomp"].startswith("  [x]")
    assert "blocked by: the cgroup file system is mounted read-only" in layers["cgroup"]
    assert "blocked by: the judge has no CAP_SYS_ADMIN" in layers["private mounts"]
    if shutil.which("bwrap"):
        assert "blocked by: a seccomp filter refuses new user namespaces" in layers["bubblewrap"]
    ipc = layers["System V IPC and POSIX message queues"]  # no namespace can be made here: the filter alone
    assert ipc == "  [x] System V IPC and POSIX message queues: the seccomp filter refuses every IPC call"
    outside = subprocess.run([sys.executable, "-m", "judge", "doctor"], capture_output=True, text=True, cwd=REPO)
    assert "blocked by: a seccomp filter" not in outside.stdout, "outside the container nothing is blocked so"


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_the_adversarial_suite_passes_in_a_container_at_the_level_doctor_reports(tmp_path):
    level = _level(_in_container(sys.executable, "-m", "judge", "doctor").stdout)
    suite = _in_container(sys.executable, "-m", "pytest", "tests/test_adversarial.py", "-q", "-rA",
                          "-p", "no:cacheprovider", "-p", "no:xdist", "--basetemp", str(tmp_path / "suite"),
                          timeout=1500, env={k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")})
    tail = suite.stdout[-6000:]
    assert suite.returncode == 0, tail
    skipped = [line for line in suite.stdout.splitlines() if line.startswith("SKIPPED")]
    for line in skipped:  # only what the container's level cannot give, named with that level, and the slow opt-in
        assert f"this machine gives {level} " in line or "JUDGE_MAX_LEVEL" in line or f"gives {level} anyway" in line \
            or "slow: give --runslow to run it" in line, line
    passed = {line.split("::", 1)[1] for line in suite.stdout.splitlines() if line.startswith("PASSED ")}
    assert f"test_the_suite_through_judge_grade[{level}]" in passed, tail  # every attack, at the container's level
    assert {"test_the_suite_is_complete_and_well_formed", "test_killing_the_judge_leaves_no_worker_behind"} <= passed, tail
