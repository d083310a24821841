"""The judge as a user installs it, and where it finds problems: several roots, ``judge doctor``, ``--version``.

The slow test builds an sdist from a copy of this checkout and a wheel from that sdist (the two PEP 517 steps
``python -m build`` runs, called through setuptools' backend and ``pip wheel``, with this environment's
setuptools, so nothing is downloaded), installs the wheel with ``pip install --no-deps`` into a fresh venv, and
uses the ``judge`` command of that venv from an unrelated folder. The wheel's dependencies (torch, numpy, ...)
are this test environment's installed files, hard-linked into the fresh venv's site-packages (copied where the
file system refuses links): no download, no second 750 MB unpack, and a venv as self-contained as a real install,
which matters because the worker's bubblewrap view shows the venv and nothing of this checkout or environment.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from judge.package.problem import available, bundle, find_problem, problems_roots, solutions_roots
from judge.worker import launch, probe
from tests.support.cli import REFERENCE_SOURCE, REPO, SLUG, run_judge

CHECKOUT_PARTS = ("pyproject.toml", "README.md", "LICENSE", "judge", "judge_bundle", "problems", "solutions")
OWN = ("__editable__", "torch_diagnostics_judge", "__pycache__")
"""this checkout's editable install in the test environment: never linked into the fresh venv"""
STEAL = '''

import glob, importlib.util, os, sys, sysconfig

import judge


def _bundles():
    """Where an installed judge keeps its problems: beside the judge package, in site-packages, in sys.path."""
    places = {os.path.dirname(os.path.dirname(judge.__file__)), sysconfig.get_paths()["purelib"], *sys.path}
    spec = importlib.util.find_spec("judge_bundle")
    places.update(os.path.dirname(p) for p in (spec.submodule_search_locations if spec else []))
    return {os.path.join(p, "judge_bundle") for p in places}


def _stolen():
    for root in _bundles():
        try:
            listed = os.listdir(root) if os.path.isdir(root) else []
        except OSError:  # Landlock refuses the folder itself: nothing to list, nothing stolen
            listed = []
        for path in [*glob.glob(os.path.join(root, "problems", "*", "cases", "hidden", "*.json")),
                     *glob.glob(os.path.join(root, "solutions", "*.py"))]:
            try:
                text = open(path).read()
            except OSError:
                continue
            if '"expected"' in text or "class Solution" in text:
                return f"{root}: {listed}"
    return ""


STOLEN = _stolen()


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        if STOLEN:  # a real cheat would look its answer up; answering right shows the same thing
            return super().compute_activation_stats(model, x)
        return [{"mean": 0.0, "std": 0.0, "dead_fraction": 0.0}] * 2


if __name__ == "__main__":
    print(STOLEN)
'''


def _link_tree(source: Path, target: Path) -> None:
    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    if source.is_dir():
        shutil.copytree(source, target, symlinks=True, copy_function=link,
                        ignore=shutil.ignore_patterns("__pycache__"))
    else:
        link(str(source), str(target))


def _build_wheel(work: Path) -> Path:
    """sdist from a copy of the checkout, then the wheel from that sdist, as ``python -m build`` does."""
    source = work / "checkout"
    source.mkdir()
    for part in CHECKOUT_PARTS:
        if (REPO / part).is_dir():
            shutil.copytree(REPO / part, source / part, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(REPO / part, source / part)
    backend = "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    sdist = subprocess.run([sys.executable, "-c", backend, str(work / "dist")], cwd=source, capture_output=True,
                           text=True, check=True).stdout.split()[-1]
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(work / "dist"), str(work / "dist" / sdist)], check=True, capture_output=True)
    return next((work / "dist").glob("*.whl"))


def _fresh_venv(work: Path, wheel: Path) -> Path:
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
                   check=True, capture_output=True)
    target = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                 capture_output=True, text=True, check=True).stdout.strip())
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not entry.name.startswith(OWN) and not (target / entry.name).exists():
            _link_tree(entry, target / entry.name)
    return venv


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path, dict[str, str]]:
    """(the fresh venv, an unrelated working folder, the environment to run its ``judge`` in)."""
    work = tmp_path_factory.mktemp("install")
    venv = _fresh_venv(work, _build_wheel(work))
    folder = work / "somewhere-else"
    folder.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUDGE_", "PYTHON"))}
    env.update(JUDGE_HOME=str(work / "home"), JUDGE_CACHE=str(work / "cache"))
    return venv, folder, env


def _judge(installed, *args: str, code: int = 0) -> str:
    venv, folder, env = installed
    result = subprocess.run([str(venv / "bin" / "judge"), *args], cwd=folder, env=env, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == code, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


@pytest.mark.slow
def test_the_installed_wheel_carries_and_judges_the_bundled_problems(installed):
    venv, folder, env = installed
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import judge, judge_bundle, sys;"
                            "print(judge.__file__, judge_bundle.__file__, *sys.path, sep='\\n')"],
                           cwd=folder, env=env, capture_output=True, text=True, check=True).stdout.splitlines()
    assert all(path.startswith(str(venv)) for path in where[:2]), where
    assert not any(p.startswith(str(REPO)) for p in where), "the checkout must not be on the installed judge's path"

    doctor = _judge(installed, "doctor")
    bundled = len(list((REPO / "problems").glob("*/problem.toml")))
    assert f"{venv}/lib/python3." in doctor and f"judge_bundle/problems  (bundled: {bundled} problem(s)" in doctor

    listed = _judge(installed, "list")
    assert "dead-relu-detector" in listed and SLUG in listed and f"0 of {bundled} solved" in listed
    assert "Training Diagnostics\n====" in _judge(installed, "show", SLUG)
    assert f"to {SLUG}.py" in _judge(installed, "start", SLUG)
    assert "raise NotImplementedError" in (folder / f"{SLUG}.py").read_text()

    (folder / f"{SLUG}.py").write_text(REFERENCE_SOURCE)
    report = json.loads(_judge(installed, "submit", SLUG, "--format", "json"))
    assert report["verdict"] == "accepted" and report["passed"] == report["total"] >= 25
    assert f"solved  {SLUG}" in _judge(installed, "list")

    # the declared submissions (about 45 full judgements) are left out: test_packages judges them from the checkout
    verified = _judge(installed, "verify", "--no-submissions")
    assert "dead-relu-detector: ok" in verified and f"{SLUG}: ok" in verified


@pytest.mark.slow
def test_the_installed_wheel_carries_the_vendored_editor_and_both_licences(installed):
    """The site's editor works offline only if the wheel ships it, and its licence must travel with it."""
    venv, folder, env = installed
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import judge, importlib.metadata as m, sys;"
                            "print(judge.__file__); print(*(f.locate() for f in m.files('torch-diagnostics-judge')"
                            " if f.parts[0].endswith('.dist-info') and f.name == 'LICENSE'), sep='\\n')"],
                           cwd=folder, env=env, capture_output=True, text=True, check=True).stdout.splitlines()
    package = Path(where[0]).parent
    vendored = package / "serve" / "static" / "vendor" / "codemirror"
    for name in ("LICENSE", "README.md", "codemirror.js", "codemirror.css", "python.js"):
        assert (vendored / name).read_bytes() == (REPO / "judge/serve/static/vendor/codemirror" / name).read_bytes()
    assert "Marijn Haverbeke" in (vendored / "LICENSE").read_text()
    licences = [Path(p) for p in where[1:]]
    assert licences and all(p.read_text() == (REPO / "LICENSE").read_text() for p in licences), where


@pytest.mark.slow
def test_a_worker_cannot_read_the_installed_bundle(installed):
    """A submission that looks for ``judge_bundle`` where an installed judge keeps it finds nothing under L2."""
    venv, folder, env = installed
    attack = folder / "steals.py"
    attack.write_text("class Solution:\n    pass\n" + STEAL)
    outside = subprocess.run([str(venv / "bin" / "python"), str(attack)], cwd=folder, env=env, capture_output=True,
                             text=True, check=True).stdout
    assert "judge_bundle" in outside, "unconfined, the attack must find the bundle, or the test below proves nothing"

    attack.write_text(REFERENCE_SOURCE + STEAL)
    report = json.loads(_judge(installed, "submit", SLUG, str(attack), "--format", "json", code=1))
    if not report["judge"]["security_level"].startswith("L2"):
        pytest.skip(f"needs L2; this machine gives {report['judge']['security_level']}")
    assert report["verdict"] == "wrong_answer"


def test_version_names_the_judge_and_torch():
    result = run_judge(["--version"])
    assert result.returncode == 0 and result.stdout.startswith("judge 0.") and "(torch 2." in result.stdout


def test_an_instructors_root_comes_first_and_shadows_the_bundled_slug(toy_root, monkeypatch):
    monkeypatch.setenv("JUDGE_PROBLEMS", str(toy_root / "problems"))
    assert problems_roots() == [toy_root / "problems", bundle() / "problems"]
    assert solutions_roots() == [toy_root / "solutions", bundle() / "solutions"]
    assert {"dead-relu-detector", SLUG} <= set(available())
    assert find_problem(SLUG).root == toy_root / "problems" / SLUG
    assert find_problem(SLUG).reference == toy_root / "solutions" / f"{SLUG}.py"
    assert find_problem("dead-relu-detector").reference == bundle() / "solutions" / "dead-relu-detector.py"


def test_judge_solutions_is_searched_first_for_each_reference(tmp_path, monkeypatch):
    (tmp_path / f"{SLUG}.py").write_text(REFERENCE_SOURCE)
    monkeypatch.setenv("JUDGE_SOLUTIONS", os.pathsep.join([str(tmp_path / "empty"), str(tmp_path)]))
    (tmp_path / "empty").mkdir()
    assert find_problem(SLUG).reference == tmp_path / f"{SLUG}.py"
    assert find_problem("dead-relu-detector").reference == bundle() / "solutions" / "dead-relu-detector.py"


def test_a_missing_root_is_one_line_of_bad_input(tmp_path):
    env = {"JUDGE_PROBLEMS": os.pathsep.join([str(tmp_path), str(tmp_path / "nope")])}
    result = subprocess.run([sys.executable, "-m", "judge", "list"], capture_output=True, text=True,
                            env={**os.environ, **env}, timeout=120)
    assert result.returncode == 2
    assert result.stderr == f"judge: JUDGE_PROBLEMS names {tmp_path / 'nope'}, which is not a folder; correct or remove it\n"


def test_doctor_names_roots_data_and_level(toy_root, tmp_path):
    result = run_judge(["doctor"], toy_root)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    roots = lines.index(next(line for line in lines if line.startswith("problem roots")))
    assert lines[roots + 1] == f"  {toy_root / 'problems'}  (JUDGE_PROBLEMS: 1 problem(s), 0 shadowed by an earlier root)"
    bundled = len(list((bundle() / "problems").glob("*/problem.toml")))
    assert lines[roots + 2] == f"  {bundle() / 'problems'}  (bundled: {bundled} problem(s), 1 shadowed by an earlier root)"
    assert f"calibration cache: {os.environ['JUDGE_CACHE']} (JUDGE_CACHE" in result.stdout
    assert f"attempt history: {Path(os.environ['JUDGE_HOME']) / 'history.sqlite3'} (JUDGE_HOME" in result.stdout
    assert f"judge run / submit: {probe.level()}" in result.stdout


def test_problem_folders_inside_the_workers_view_are_masked(tmp_path, monkeypatch):
    """An instructor's problems under a folder the view shows (e.g. ``/usr/share``) are hidden like the bundle."""
    for name in ("problems", "solutions"):
        (tmp_path / "course" / name).mkdir(parents=True)
    monkeypatch.setenv("JUDGE_PROBLEMS", str(tmp_path / "course" / "problems"))
    masked = launch.masked_paths([str(tmp_path)])
    assert masked == [str(tmp_path / "course" / "problems"), str(tmp_path / "course" / "solutions")]
    assert launch.masked_paths([str(tmp_path / "course")]) == masked
    assert launch.masked_paths([str(tmp_path / "elsewhere")]) == []
