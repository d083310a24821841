"""The judge runs on every Python that ``requires-python`` claims.

``vermin`` reads every module of the judge, and every problem and reference solution an export bundles (they run
in the worker, on the same interpreter), and fails if any needs a newer Python than the minimum; the exported
``setup.sh`` refuses an older one with one line; and in the slow step, the Gradescope export is set up and run as
Gradescope runs it, on real Ubuntu 22.04 and 24.04 roots (debootstrap), whose python3 is 3.10, the oldest claimed,
and 3.12.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path
from typing import Iterator

import pytest

from judge.compat import tomllib
from tests.support.cli import REPO, SLUG, run_judge

MINIMUM = re.fullmatch(r">=(\d+)\.(\d+)", tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
                       ["requires-python"])


def _vermin(*paths: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "import sys, vermin; sys.exit(vermin.main())", f"-t={MINIMUM[1]}.{MINIMUM[2]}-", "--violations", "--no-tips",
                           "--eval-annotations",
                           "--exclude-regex", "/submissions/", *map(str, paths)],
                          capture_output=True, text=True, timeout=600)


def test_requires_python_states_a_minimum():
    assert MINIMUM, "requires-python must be '>=X.Y', the range the tests here prove"


def test_nothing_the_judge_runs_needs_a_newer_python_than_it_claims():
    found = _vermin(REPO / "judge", REPO / "problems", REPO / "solutions")
    assert found.returncode == 0 and "Target versions not met" not in found.stdout, found.stdout + found.stderr


def test_the_check_would_catch_a_newer_feature(tmp_path):
    """The check is not vacuous: the very features that broke 3.10 are caught."""
    (tmp_path / "newer.py").write_text("from enum import StrEnum\nimport tomllib\n")
    found = _vermin(tmp_path)
    assert found.returncode != 0 and "Target versions not met" in found.stdout


def test_setup_checks_the_same_minimum():
    setup = (REPO / "judge" / "platforms" / "templates" / "setup.sh.j2").read_text()
    checks = set(re.findall(r"sys\.version_info < \((\d+), (\d+)\)", setup))
    assert checks == {(MINIMUM[1], MINIMUM[2])}


def _render_setup(toy_root: Path, tmp_path: Path) -> Path:
    result = run_judge(["export", "gradescope", SLUG, "--out", str(tmp_path / "autograder.zip")], toy_root)
    assert result.returncode == 0, result.stdout + result.stderr
    source = tmp_path / "source"
    with zipfile.ZipFile(tmp_path / "autograder.zip") as archive:
        archive.extractall(source)
    return source


def test_setup_refuses_an_older_python_in_one_line(toy_root, tmp_path):
    source = _render_setup(toy_root, tmp_path)
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for tool in ("dirname", "grep"):
        (bin_ / tool).symlink_to(shutil.which(tool))
    python = bin_ / "python3"  # an old interpreter: it answers -V and fails every version check
    python.write_text('#!/bin/sh\n[ "$1" = -V ] && { echo "Python 3.9.18"; exit 0; }\nexit 1\n')
    python.chmod(0o755)
    prefix = tmp_path / "prefix"
    found = subprocess.run(["/bin/bash", str(source / "setup.sh"), str(prefix)], capture_output=True, text=True,
                           env={"PATH": str(bin_)}, timeout=60)
    lines = found.stderr.strip().splitlines()
    assert found.returncode == 1 and len(lines) == 1, found.stderr
    assert f"Python {MINIMUM[1]}.{MINIMUM[2]} or later" in lines[0] and "Python 3.9.18" in lines[0]
    assert not (prefix / "venv").exists()


UBUNTU = ("http://archive.ubuntu.com/ubuntu", "http://security.ubuntu.com/ubuntu")
RELEASES = {"jammy": (int(MINIMUM[1]), int(MINIMUM[2])), "noble": (3, 12)}
"""Gradescope's base images, Ubuntu 22.04 (jammy) and 24.04 (noble), and the python3 each has: 22.04's is the
oldest the judge claims"""
PROBLEM = "dead-relu-detector"


def _reachable(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/dists/jammy/Release", timeout=20):
            return True
    except OSError:
        return False


@pytest.fixture(params=sorted(RELEASES))
def ubuntu(request, tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """A bare Ubuntu root made by debootstrap (its Ubuntu script is gutsy's, which Debian's debootstrap may not
    know by the release's own name), with its package sources and this machine's CA bundle (pip reaches PyPI
    through the same proxy as the host, which may sign with a CA of its own)."""
    if os.geteuid() != 0 or not (shutil.which("debootstrap") and shutil.which("unshare")):
        pytest.skip("needs root, debootstrap and unshare(1) to build and enter an Ubuntu root")
    if not _reachable(UBUNTU[0]):
        pytest.skip(f"Ubuntu's archive ({UBUNTU[0]}) cannot be reached from here")
    name = request.param
    root = tmp_path_factory.mktemp(f"ubuntu-{name}")
    made = subprocess.run(["debootstrap", "--variant=minbase", "--components=main,universe", name, str(root),
                           UBUNTU[0], "/usr/share/debootstrap/scripts/gutsy"], capture_output=True, text=True,
                          timeout=1200)
    assert made.returncode == 0, made.stdout[-2000:] + made.stderr[-2000:]
    (root / "etc/apt/sources.list").write_text(f"deb {UBUNTU[0]} {name} main universe\n"
                                               f"deb {UBUNTU[0]} {name}-updates main universe\n"
                                               f"deb {UBUNTU[1]} {name}-security main universe\n")
    shutil.copyfile("/etc/resolv.conf", root / "etc/resolv.conf")
    shutil.copyfile(os.environ.get("SSL_CERT_FILE", "/etc/ssl/certs/ca-certificates.crt"), root / "etc/host-ca.crt")
    yield name, root
    shutil.rmtree(root, ignore_errors=True)


def _in_root(root: Path, command: str, timeout: float = 1800) -> subprocess.CompletedProcess[str]:
    """``command`` run as Gradescope runs its scripts: as root in the image, with an environment of its own (and
    /proc, /sys and /dev mounted in a private mount namespace, which goes when the command ends)."""
    mounts = f"mount -t proc proc {root}/proc && mount --rbind /sys {root}/sys && mount --rbind /dev {root}/dev"
    env = "env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root JUDGE_TORCH_INDEX= " \
          "PIP_CERT=/etc/host-ca.crt"
    return subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                           f"{mounts} && exec chroot {root} {env} bash -c {shlex.quote(command)}"],
                          capture_output=True, text=True, timeout=timeout)


def _graded(root: Path, source: Path) -> dict:
    submission = root / "autograder" / "submission"
    shutil.rmtree(submission, ignore_errors=True)
    shutil.rmtree(root / "autograder" / "results", ignore_errors=True)
    submission.mkdir()
    shutil.copyfile(source, submission / "solution.py")
    ran = _in_root(root, "bash /autograder/run_autograder", timeout=600)
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    return json.loads((root / "autograder" / "results" / "results.json").read_text())


@pytest.mark.slow
def test_the_gradescope_export_installs_and_judges_on_each_ubuntu_base_image(ubuntu, tmp_path):
    """The export's ``setup.sh`` run as Gradescope runs it on its Ubuntu base image (it installs python3, 3.10 on
    22.04 and 3.12 on 24.04, from Ubuntu's own packages, and torch from pip's index), then ``run_autograder`` for
    the reference and a declared wrong submission: the first earns every point, the second loses some."""
    name, root = ubuntu
    exported = run_judge(["export", "gradescope", PROBLEM, "--out", str(tmp_path / "autograder.zip")])
    assert exported.returncode == 0, exported.stdout + exported.stderr
    with zipfile.ZipFile(tmp_path / "autograder.zip") as archive:
        archive.extractall(root / "autograder" / "source")
    shutil.copyfile(root / "autograder/source/run_autograder", root / "autograder/run_autograder")  # as Gradescope does
    setup = _in_root(root, "bash /autograder/source/setup.sh")
    assert setup.returncode == 0, setup.stdout[-3000:] + setup.stderr[-3000:]
    version = _in_root(root, "/autograder/venv/bin/python -c 'import sys; print(*sys.version_info[:2])'")
    assert tuple(map(int, version.stdout.split())) == RELEASES[name], version

    right = _graded(root, REPO / "solutions" / f"{PROBLEM}.py")
    assert right["extra_data"]["judged"] and right["tests"], right
    assert all(test["status"] == "passed" for test in right["tests"]), right
    assert right["score"] == sum(test["max_score"] for test in right["tests"])
    wrong = _graded(root, next((REPO / "problems" / PROBLEM / "submissions" / "wrong_answer").glob("*.py")))
    assert wrong["extra_data"]["judged"] and 0 <= wrong["score"] < right["score"], wrong


def test_the_310_strenum_reads_as_311s():
    """Every way the judge turns a verdict into text or compares it gives the same on 3.10 as on 3.11."""
    import enum
    import json

    from judge.compat import StrEnum310

    class Old(StrEnum310):
        WRONG = "wrong_answer"

    class New(enum.StrEnum):  # novermin -- the reference behaviour, on the interpreter running the tests
        WRONG = "wrong_answer"

    for member in (Old.WRONG, New.WRONG):
        assert (str(member), f"{member}", f"{member:>14}", "%s" % member, format(member), json.dumps(member)) == (
            "wrong_answer", "wrong_answer", "  wrong_answer", "wrong_answer", "wrong_answer", '"wrong_answer"')
        assert member == "wrong_answer" and type(member)("wrong_answer") is member and hash(member) == hash("wrong_answer")
        assert "-".join([member]) == "wrong_answer" and {member: 1}["wrong_answer"] == 1
