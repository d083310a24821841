"""The adversarial suite: every file in ``tests/adversarial/`` is judged by the real ``judge submit``.

Each file is one hostile or broken submission. Its first comment lines declare::

    # verdict: wrong_answer          the verdict the judge must give it
    # attack: what it tries          (one line, for people)
    # stopped by: what stops it      (the layer or the step of the judge, for people)
    # needs: L1 | L2 | uid           optional: the weakest confinement under which the verdict holds
    #        | cgroup | disk          (a per-worker cgroup; a disk quota everywhere the worker can write)
    # levels: every                  optional: also judged at JUDGE_MAX_LEVEL=L1 and L0 (the resource limits)
    # base: reference                optional: the reference solution is prepended, so the file can subclass it
    # outputs: hostile               optional: its strings attack the report formats (tests/test_hostile_outputs.py)
    # problem: backprop-bug-finder   optional: judged on a few cases of that bundled problem instead of the toy
    #                                below (tests/test_adversarial_bundled.py)

and the test checks, beyond the verdict, that the judge exits 0 or 1 (never 3, never a crash), that no process
of the submission survives it, that no file outside the worker's scratch directory changed, that the scratch
directory is gone, and that no text from the submission reaches a hidden case in the report.
A case whose ``needs`` this machine does not meet is skipped, saying which confinement was found.

Every case runs through ``judge submit`` at the strongest level this machine gives (a slow test: a fresh judge
per attack, run by ``.ci/run``'s second step); the cases that need L1 run again at ``JUDGE_MAX_LEVEL=L1`` (where
the workers keep uid 0 when the judge runs as root and the interpreter lives under ``/root``: the level most
grading gets, inside a container). The whole suite also runs through ``judge grade`` (in the default run), once
per level, as one class (with a few copies of the case that leaves notes for the next submission, so that two of
them share a warm worker), checking the same, and that the run leaves the checkout's ``git status`` as it found
it, the problem files byte-identical and no System V object or message queue behind.

The problem is a small copy of training-diagnostics (one sample and one hidden case, CPU floor 1 s, 450 MB),
so the whole suite runs in a few minutes. Survivors are found by a marker: every judge run gets its own
``TMPDIR``, which the worker's environment (``HOME``, ``TMPDIR``) and working directory carry.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.adversarial import (ATTACKS, CANARY, EVERY_ATTACK, JUDGE_TIMEOUT_S, LEAK, RUNS, VERDICTS, grade_class,
                                       judge_attack, start_judge, survivors)
from tests.support.cli import REFERENCE_SOURCE, SLUG, judge_env


def test_the_suite_is_complete_and_well_formed():
    assert len(ATTACKS) >= 60
    for attack in EVERY_ATTACK:
        assert attack.verdict in VERDICTS, attack.path.name
        assert attack.header.get("attack") and attack.header.get("stopped by"), attack.path.name
        assert attack.header.get("needs") in (None, "L1", "L2", "uid", "cgroup", "disk"), attack.path.name
        assert attack.header.get("levels") in (None, "every"), attack.path.name
        assert attack.header.get("outputs") in (None, "hostile"), attack.path.name


@pytest.mark.slow  # 13 min on 2 cores, a fresh judge each; the default run judges every attack by judge grade
@pytest.mark.parametrize("attack, cap", RUNS, ids=[a.path.stem + (f"-{c}" if c else "") for a, c in RUNS])
def test_attack(attack, cap, adversarial_root, arena):
    judge_attack(attack, cap, adversarial_root, arena)


@pytest.mark.parametrize("cap", ["L2", "L1"])
def test_the_suite_through_judge_grade(cap, adversarial_root, arena, judge_home):
    """One class of every attack this level stops, graded by ``judge grade`` with two warm workers."""
    grade_class(cap, adversarial_root, arena, judge_home, ATTACKS)


SLEEPER = REFERENCE_SOURCE + '''

class Solution(Solution):
    def compute_activation_stats(self, model, x):
        import time
        time.sleep(600)
'''


def test_killing_the_judge_leaves_no_worker_behind(adversarial_root, arena):
    """A judge that dies mid-judgement takes its worker with it (death signal, and bubblewrap's die-with-parent)."""
    submission = arena / "submissions" / "sleeper.py"
    submission.write_text(SLEEPER)
    judge = start_judge(adversarial_root, submission, arena)
    deadline = time.monotonic() + 60
    while not survivors(arena.name) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert survivors(arena.name), "the worker never started"
    judge.send_signal(signal.SIGKILL)
    judge.wait()
    deadline = time.monotonic() + 60  # the death signal is at once; the margin is for a machine with no CPU to give
    while survivors(arena.name) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not survivors(arena.name)


RELAY = REFERENCE_SOURCE + '''

import os
RELAY = "{relay}"
if os.path.exists(RELAY):
    raise ImportError("LEAKED- " + open(RELAY).read())


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        if x.shape[0] == 6:  # the first hidden case of the toy problem
            with open(RELAY, "w") as f:
                f.write(repr(x.tolist()))
            os._exit(1)
        return super().compute_activation_stats(model, x)
'''


def test_an_import_error_after_a_hidden_case_is_not_reported(toy_root, arena):
    """At L0 a worker can leave a hidden input in a shared folder and make the next import raise it."""
    relay = Path("/tmp") / f"{CANARY}-relay-{arena.name}"
    submission = arena / "submissions" / "relay.py"
    submission.write_text(RELAY.replace("{relay}", str(relay)))
    env = {**judge_env(toy_root), "JUDGE_MAX_LEVEL": "L0", "TMPDIR": str(arena / "tmp"),
           "JUDGE_PRIVATE_MOUNTS": "off"}  # as root they make /tmp read-only: the L0 of a judge that is not root
    try:
        judged = subprocess.run([sys.executable, "-m", "judge", "submit", SLUG, str(submission), "--format", "json"],
                                capture_output=True, text=True, env=env, timeout=JUDGE_TIMEOUT_S)
        assert relay.exists(), "the relay file was not written: the test no longer exercises the leak"
    finally:
        relay.unlink(missing_ok=True)
    report = json.loads(judged.stdout)
    assert [t["extra_data"]["verdict"] for t in report["tests"]] == ["accepted", "runtime_error", "compile_error"]
    assert LEAK not in judged.stdout
