"""The layers themselves: the seccomp filter, the probe, and the level every report prints."""

from __future__ import annotations

import ctypes.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from judge.worker import confinement, landlock, launch, probe
from judge.worker.scratch import remove_leftovers, scratch_prefix
from tests.support.cli import REFERENCE_SOURCE, SLUG, judge_json, run_judge
from tests.support.toy import TOY_MEMORY_MB, build_toy, mlp_case

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
    found = probe.confinement()
    assert found.level in confinement.LEVELS
    text = found.describe()
    assert text.startswith(found.level)
    assert (found.level == "L2") == (found.bwrap is not None)
    if found.level != "L2":
        assert "no bubblewrap" in text


def test_a_gpu_worker_stops_at_l1():
    assert probe.confinement("cuda").bwrap is None


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
    root = build_toy(tmp_path / "broken", {"sample/01-small": mlp_case("a small ReLU MLP", 10, 8)}, TOY_MEMORY_MB)
    (root / "solutions" / f"{SLUG}.py").write_text("class Solution:\n    pass\n")
    code, report = judge_json(["run", SLUG, str(write_submission(REFERENCE_SOURCE))], root)
    assert (code, report["verdict"]) == (3, "internal_error")
    assert report["judge"]["security_level"].startswith(probe.confinement().level)


def _tree(root, paths):
    for path in paths:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("x")


def test_landlock_never_allows_an_ancestor_of_a_secret_nor_a_path_inside_one(tmp_path):
    """An installed judge keeps the bundled problems in site-packages beside torch: site-packages is split."""
    site = tmp_path / "site-packages"
    _tree(site, ["torch/__init__.py", "numpy/core.py", "judge/main.py", "judge_bundle/__init__.py",
                 "judge_bundle/problems/p/cases/hidden/1.json", "judge_bundle/solutions/p.py"])
    home = tmp_path / "home"
    _tree(home, [".cache/torch-judge/times.json", "venv/lib/site.py"])
    secrets = landlock.Secrets(kept=(str(site / "judge_bundle/problems"), str(site / "judge_bundle/solutions"),
                                     str(home / ".cache/torch-judge")), around=(str(home),)).resolved()
    found = landlock.allowed([str(site), str(home / "venv"), str(site / "torch")], secrets)
    assert sorted(found) == [str(home / "venv"), *(str(site / n) for n in ("judge", "judge_bundle/__init__.py",
                                                                           "numpy", "torch"))]
    assert landlock.check(landlock.Rules(read=found), secrets) == []
    for exposing in (site, site / "judge_bundle", site / "judge_bundle/problems/p", home, tmp_path):
        assert landlock.check(landlock.Rules(read=[str(exposing)]), secrets), exposing
    assert landlock.allowed([str(home)], secrets) == [str(home / "venv")]


def test_the_workers_rules_here_expose_no_secret():
    secrets = confinement.secrets().resolved()
    read = landlock.readable(secrets)
    assert read and landlock.check(landlock.rules(read, "/tmp/judge-worker-x"), secrets) == []
    problems = [str(p) for p in secrets.kept]
    assert not any(p.startswith(r + "/") or p == r for p in problems for r in read)


RESTRICTED = """
import os, sys, json
from judge.worker import landlock, privileges
scratch, secret, judge_file = sys.argv[1:4]
secrets = landlock.Secrets(kept=(os.path.dirname(secret),), around=("/tmp",))
privileges.drop_all()
status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines())  # unreadable once restricted
landlock.restrict(landlock.rules(landlock.readable(secrets), scratch), secrets)
def can(action):
    try:
        action()
        return True
    except OSError:
        return False
print(json.dumps({
    "read secret": can(lambda: open(secret).read()),
    "write judge": can(lambda: open(judge_file, "a").close()),
    "parent environ": can(lambda: open(f"/proc/{os.getppid()}/environ").read()),
    "write scratch": can(lambda: open(os.path.join(scratch, "x"), "w").write("x")),
    "import stdlib": can(lambda: __import__("email.mime.text")),
    "own maps": can(lambda: open("/proc/self/maps").read()),
    "own pagemap, stat, status, smaps": [can(lambda: open(f"/proc/self/{name}", "rb").read(8))
                                         for name in ("pagemap", "stat", "status", "smaps", "numa_maps", "io")],
    "capabilities": [int(status[k], 16) for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")],
}))
"""


@pytest.mark.skipif(landlock.abi() == 0, reason="this kernel has no Landlock")
def test_a_restricted_process_reads_no_secret_writes_only_its_scratch_and_has_no_capability(tmp_path):
    secret = tmp_path / "problems" / "hidden.json"
    _tree(tmp_path, ["problems/hidden.json"])
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    judge_file = Path(launch.__file__)
    child = subprocess.run([sys.executable, "-I", "-B", "-c", RESTRICTED, str(scratch), str(secret), str(judge_file)],
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    facts = json.loads(child.stdout)
    assert facts == {"read secret": False, "write judge": False, "parent environ": False, "write scratch": True,
                     "import stdlib": True, "own maps": True, "own pagemap, stat, status, smaps": [False] * 6,
                     "capabilities": [0, 0, 0, 0 if os.geteuid() == 0 else facts["capabilities"][3], 0]}


def test_scratch_directories_of_a_killed_judge_are_removed_and_a_live_ones_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = subprocess.Popen(["true"])
    dead.wait()
    leftover = tmp_path / f"judge-zygote-{dead.pid}-abc"
    (leftover / "judge-worker-def").mkdir(parents=True)
    live = tmp_path / f"{scratch_prefix('worker')}ghi"
    live.mkdir()
    other = tmp_path / "not-the-judges"
    other.mkdir()
    assert remove_leftovers() == [str(leftover)]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, other.name])


def test_doctor_explains_every_layer_and_the_level():
    layers = probe.explain()
    found = probe.confinement()
    assert [layer.name for layer in layers] == ["limits", "cgroup", "private mounts", "uid", "capabilities", "seccomp",
                                                "Landlock", "bubblewrap", "level"]
    state = {layer.name: layer.active for layer in layers}
    assert state["cgroup"] == bool(found.cgroup) and state["private mounts"] == found.private_mounts
    assert all(f"{what} " in layers[0].detail for what in ("memory", "threads", "written"))
    assert state["seccomp"] == found.seccomp and state["Landlock"] == bool(found.landlock)
    assert state["bubblewrap"] == (found.bwrap is not None) and state["level"] == found.keeps_secrets
    assert layers[-1].detail.startswith(found.level)
    assert all(layer.detail for layer in layers)
    result = run_judge(["doctor"])
    assert result.returncode == 0 and all(layer.detail in result.stdout for layer in layers)
