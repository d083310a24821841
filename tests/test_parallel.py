"""Problems verified side by side (:mod:`judge.author.parallel`): results and lines in the problems' order, every
process closed, and a failure or an interrupt ends the run in one line with nothing left running."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from multiprocessing.context import SpawnProcess

import pytest

from judge.author import parallel
from judge.errors import BadInput, InternalError
from judge.messages import say
from tests.support.cli import REPO, default_sigint, judge_env
from tests.support.side_by_side import Toy


def test_lines_come_in_the_items_order_whichever_finishes_first(tmp_path):
    lines: list[str] = []
    got = parallel.each(["slow:1.5", "quick:0", "mid:0.3", "last:0"], Toy(tmp_path / "closed"), 2, lines.append)
    assert got == ["SLOW", "QUICK", "MID", "LAST"]
    assert lines == [f"{name} {n}" for name in ("slow", "quick", "mid", "last") for n in (1, 2, 3)]
    pids = (tmp_path / "closed").read_text().split()
    assert len(pids) == 2 and str(os.getpid()) not in pids, "each of the two processes closed its work"


def test_one_job_works_in_this_process(tmp_path):
    lines: list[str] = []
    assert parallel.each(["a:0", "b:0"], Toy(tmp_path / "closed"), 1, lines.append) == ["A", "B"]
    assert (tmp_path / "closed").read_text().split() == [str(os.getpid())] and len(lines) == 6


@pytest.mark.parametrize("item, raised, text", [
    ("raise:0", ValueError, "a bug in the work"),
    ("unpicklable:0", InternalError, "internal error: Local: made inside a function"),  # as the command line says it
    ("bad:0", BadInput, say("unknown_problem", slug="bad", known="a, b")),  # the judge's own, exit status and all
])
def test_a_failure_in_a_process_is_raised_as_the_serial_run_raises_it_and_every_process_ends(tmp_path, item, raised,
                                                                                             text):
    with pytest.raises(raised) as caught:
        parallel.each(["a:0", item, "b:3"], Toy(tmp_path / "closed"), 2, lambda _: None)
    assert str(caught.value) == text
    assert len((tmp_path / "closed").read_text().split()) == 2


def test_a_process_that_dies_fails_the_run_instead_of_waiting_for_ever(tmp_path):
    with pytest.raises(InternalError, match="the process checking die:0 ended before it was done"):
        parallel.each(["die:0", "die:0", "a:0"], Toy(tmp_path / "closed"), 2, lambda _: None)


def _marked(mark: str) -> list[int]:
    """Processes whose environment carries ``mark``."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and mark.encode() in open(f"/proc/{entry}/environ", "rb").read():
                found.append(int(entry))
        except OSError:
            pass
    return found


@pytest.mark.timeout(600)
def test_an_interrupted_verify_says_so_and_leaves_nothing_running(tmp_path):
    for slug in ("training-log-doctor", "logit-health"):
        shutil.copytree(REPO / "problems" / slug, tmp_path / "problems" / slug)
    shutil.copytree(REPO / "solutions", tmp_path / "solutions")
    mark = f"JUDGE_TEST_MARK_{uuid.uuid4().hex}"
    env = {**judge_env(tmp_path), mark: "1"}
    verify = subprocess.Popen([sys.executable, "-m", "judge", "verify", "training-log-doctor", "logit-health",
                               "--jobs", "2", "--recompute"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    assert verify.stdout.readline().startswith("== training-log-doctor")
    time.sleep(2)  # both processes are judging
    assert len(_marked(mark)) > 3
    verify.send_signal(signal.SIGINT)
    _, err = verify.communicate(timeout=120)
    assert verify.returncode == 130 and err.strip() == "judge: interrupted", err
    deadline = time.monotonic() + 30
    while _marked(mark) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not _marked(mark), "a process of the interrupted verify is still running"


def test_an_interrupt_while_the_processes_start_leaves_none_running(tmp_path, monkeypatch):
    """Found by a red team: SIGINT is held back while the processes start, and one that came meanwhile was raised
    before the part that stops them, leaving those already started running."""
    real, started = SpawnProcess.start, []

    def start(self):
        real(self)
        started.append(self)
        if len(started) == 1:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the second process is being started

    monkeypatch.setattr(SpawnProcess, "start", start)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # a run started in the background ignores it
    try:
        with pytest.raises(KeyboardInterrupt):
            parallel.each(["a:5", "b:5", "c:5"], Toy(tmp_path / "closed"), 2, lambda _: None)
    finally:
        signal.signal(signal.SIGINT, previous)
    alive = [process for process in started if process.is_alive()]
    for process in alive:
        process.kill()
        process.join()
    assert started and not alive, "each() returned with a process it started still running"
    assert len((tmp_path / "closed").read_text().split()) == len(started), "each closed its work"


def test_a_process_whose_parent_is_killed_stops_and_closes_its_work(tmp_path):
    """SIGTERM or SIGKILL to judge verify: its processes hear of it (a parent-death signal) and close their
    workers, instead of checking on with no one reading; also when the parent was started with SIGINT ignored, as
    a command started in the background is (a run under a CPU hog found them checking on then)."""
    script = (f"from judge.author import parallel\nfrom tests.support.side_by_side import Toy\nfrom pathlib import Path\n"
              f"parallel.each(['a:900', 'b:900'], Toy(Path({str(tmp_path / 'closed')!r})), 2, print)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=REPO, stdout=subprocess.PIPE, text=True,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert parent.stdout.readline().strip() == "a 1"  # both are sleeping in their first item
    time.sleep(1)
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 240  # a hang guard: at once when idle, seconds beside two CPU hogs
    while len((tmp_path / "closed").read_text().split() if (tmp_path / "closed").exists() else []) < 2:
        assert time.monotonic() < deadline, "a process of the killed parent did not close its work"
        time.sleep(0.2)
