"""The layers themselves: the seccomp filter, the probe, and the level every report prints."""

from __future__ import annotations

import ctypes.util
import shutil
import subprocess
import sys

import pytest

from judge.worker import sandbox
from tests.conftest import TOY_MEMORY_MB, REFERENCE_SOURCE, SLUG, _mlp_case, build_toy, judge_json, run_judge

FILTERED = """
import os, socket, subprocess, threading, torch
from judge.worker import seccomp
torch.set_num_threads(2)
seccomp.install()
refused = []
for name, attempt in [("fork", os.fork), ("socket", socket.socket), ("exec", lambda: subprocess.run(["true"])),
                      ("kill", lambda: os.kill(os.getppid(), 0)), ("setsid", os.setsid)]:
    try:
        if attempt() == 0:
            os._exit(0)
    except PermissionError:
        refused.append(name)
thread = threading.Thread(target=lambda: None)
thread.start()
thread.join()
print(" ".join(refused), float((torch.ones(300, 300) @ torch.ones(300, 300)).sum()))
"""


@pytest.mark.skipif(ctypes.util.find_library("seccomp") is None, reason="libseccomp is not installed")
def test_the_filter_refuses_processes_sockets_and_signals_but_not_threads():
    child = subprocess.run([sys.executable, "-I", "-c", FILTERED], capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    assert child.stdout.split() == ["fork", "socket", "exec", "kill", "setsid", str(300.0**3)]


def test_the_probe_finds_a_level_and_explains_what_is_missing():
    found = sandbox.confinement()
    assert found.level in sandbox.LEVELS
    text = found.describe()
    assert text.startswith(found.level)
    assert (found.level == "L2") == (found.bwrap is not None)
    if found.level != "L2":
        assert "no bubblewrap" in text


def test_a_gpu_worker_stops_at_l1():
    assert sandbox.confinement("cuda").bwrap is None


@pytest.mark.parametrize("cap", ["L0", "L1"])
def test_reports_print_the_level_in_force(toy_root, write_submission, monkeypatch, cap):
    monkeypatch.setenv("JUDGE_MAX_LEVEL", cap)
    code, report = judge_json(["run", SLUG, str(write_submission(REFERENCE_SOURCE))], toy_root)
    assert (code, report["verdict"]) == (0, "accepted")
    assert report["judge"]["security_level"].startswith(cap)
    assert f"JUDGE_MAX_LEVEL is {cap}" in report["judge"]["security_level"]


def test_an_unknown_level_is_bad_input(toy_root, write_submission, monkeypatch):
    monkeypatch.setenv("JUDGE_MAX_LEVEL", "L9")
    result = run_judge(["run", SLUG, str(write_submission(REFERENCE_SOURCE))], toy_root)
    assert result.returncode == 2
    assert "JUDGE_MAX_LEVEL" in result.stderr


def test_the_judges_own_failure_report_prints_the_level_too(tmp_path, write_submission):
    """A reference that fails during calibration is the judge's fault: exit 3, and still a full report."""
    root = build_toy(tmp_path / "broken", {"sample/01-small": _mlp_case("a small ReLU MLP", 10, 8)}, TOY_MEMORY_MB)
    (root / "solutions" / f"{SLUG}.py").write_text("class Solution:\n    pass\n")
    shutil.rmtree(root / "cache", ignore_errors=True)
    code, report = judge_json(["run", SLUG, str(write_submission(REFERENCE_SOURCE))], root)
    assert (code, report["verdict"]) == (3, "internal_error")
    assert report["judge"]["security_level"].startswith(sandbox.confinement().level)
