"""A worker needs only the judge's files of :mod:`judge.worker.footprint`, and L2's view and L1's rules give it
those alone: the judge's code out of the submission's reach."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from judge.package.problem import available, find_problem
from judge.worker import footprint, landlock
from judge.worker.launch import bwrap_args

CLOSURE = """
import json, sys
import judge.worker.main as worker, judge.worker.zygote, judge.worker.seccomp, judge.worker.launch
from judge.package.build import build_objects, checksum
from judge.package.kinds import reveal
worker.prepare()
for objects, hidden in json.load(sys.stdin):
    checksum(build_objects(reveal(objects, tuple(hidden))))
print(json.dumps(sorted(m for m in sys.modules if m == "judge" or m.startswith("judge."))))
"""
"""a worker's whole life in one interpreter: the warm process's and the worker's imports, then every object
of every case built from what a call request carries"""
KEPT_OUT = ("judge.messages", "judge.errors", "judge.judging", "judge.author", "judge.report", "judge.grading",
            "judge.serve", "judge.practice", "judge.platforms", "judge.package.problem", "judge.package.cases")


def _requests() -> list:
    return [(r["objects"], r["hidden"]) for slug in available() for case in find_problem(slug).cases
            for r in (case.call_request(i) for i in range(len(case.calls)))]


def test_a_worker_imports_nothing_of_the_judge_outside_its_footprint():
    run = subprocess.run([sys.executable, "-I", "-B", "-c", CLOSURE], input=json.dumps(_requests()),
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    imported = json.loads(run.stdout)
    assert "judge.package.kinds.autograd_layers" in imported and "judge.package.kinds.modules" in imported
    assert [m for m in imported if not footprint.allows(m)] == []
    assert not [m for m in imported for k in KEPT_OUT if m == k or m.startswith(k + ".")]


def test_the_footprint_is_worker_code_only():
    names = {os.path.relpath(p, footprint.PACKAGE_DIR) for p in footprint.sources()}
    assert {"worker/main.py", "package/build.py", "package/kinds/autograd_layers.py", "__init__.py"} <= names
    assert not [n for n in names if n.split(os.sep)[0] in ("judging", "author", "report", "grading", "serve",
                                                           "practice", "platforms") or n == "messages.py"]
    assert all(os.path.dirname(p) in footprint.directories() for p in footprint.files()
               if "__pycache__" not in p)


def test_l2_binds_the_footprint_file_by_file(tmp_path):
    args = bwrap_args("bwrap", tmp_path)
    binds = {args[i + 1] for i, a in enumerate(args) if a == "--ro-bind"}
    assert footprint.PACKAGE_DIR not in binds
    assert set(footprint.files()) <= binds
    assert not [b for b in binds if b.startswith(footprint.PACKAGE_DIR + os.sep) and b not in footprint.files()]
    assert args[args.index("--tmpfs", args.index(footprint.PACKAGE_DIR) - 1) + 1] == footprint.PACKAGE_DIR


def test_l1_reads_the_footprint_file_by_file_and_only_lists_the_package():
    read = landlock.readable(landlock.Secrets())
    package = os.path.realpath(footprint.PACKAGE_DIR)
    assert not [p for p in read if package.startswith(os.path.realpath(p).rstrip(os.sep) + os.sep)
                or os.path.realpath(p) == package], "a readable folder holds the whole package"
    inside = {p for p in read if os.path.realpath(p).startswith(package + os.sep)}
    assert inside == set(footprint.files())
    rules = landlock.rules(read, "/tmp")
    assert rules.listed == footprint.directories()
