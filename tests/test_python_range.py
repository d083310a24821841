"""The judge runs on every Python that ``requires-python`` claims (issue 31 §1).

``vermin`` reads every module of the judge, and every problem and reference solution an export bundles (they run
in the worker, on the same interpreter), and fails if any needs a newer Python than the minimum; the exported
``setup.sh`` refuses an older one with one line, and on the oldest claimed interpreter, where this machine has one,
an exported wheel installs and judges its reference.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from judge.compat import tomllib
from tests.support.cli import REPO, SLUG, run_judge

MINIMUM = re.fullmatch(r">=(\d+)\.(\d+)", tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
                       ["requires-python"])
OLDEST = f"python{MINIMUM[1]}.{MINIMUM[2]}" if MINIMUM else None


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


@pytest.mark.slow
def test_an_export_installs_and_judges_on_the_oldest_claimed_python(toy_root, tmp_path):
    """The exported wheel, installed into a venv of the oldest claimed interpreter, judges its reference."""
    oldest = shutil.which(OLDEST or "")
    if oldest is not None and subprocess.run([oldest, "-c", "pass"], capture_output=True).returncode != 0:
        oldest = None  # a pyenv shim names python3.10 without any 3.10 installed behind it
    if oldest is None:
        pytest.skip(f"no {OLDEST} here: Debian's archive has none for this release and PyPI's portable "
                    "interpreters download their binaries from elsewhere; vermin's static check stands in")
    source = _render_setup(toy_root, tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([oldest, "-m", "venv", str(venv)], check=True, timeout=300)
    wheel = next(source.glob("*.whl"))
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], check=True, timeout=1800)
    env = {key: value for key, value in os.environ.items() if not key.startswith("JUDGE_")}
    found = subprocess.run([str(venv / "bin" / "judge"), "submit", SLUG, str(toy_root / "solutions" / f"{SLUG}.py")],
                           capture_output=True, text=True, env=env, timeout=1800)
    assert found.returncode == 0 and "accepted" in found.stdout, found.stdout + found.stderr


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
