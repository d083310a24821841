"""``[worker] preload``: modules a problem's workers get from the warm process instead of importing them on a first
use (torch._dynamo, on an optimizer's first step: 1.5 s per worker), checked where a package is read."""

from __future__ import annotations

import dataclasses
import shutil

import pytest

from judge.author.verify import verify
from judge.errors import BadInput
from judge.judging.plan import make_plan
from judge.judging.pool import WorkerPool
from judge.package.problem import find_problem, load_problem
from judge.pipeline import Judge, Submitted, judge_guarded
from tests.support.cli import REPO, SLUG

PROBE = """import sys
class Solution:
    def compute_activation_stats(self, model, x):
        raise RuntimeError("wave" in sys.modules)
    compute_gradient_stats = diagnose = compute_activation_stats
"""
"""fails its first call with whether ``wave`` (a module nothing else imports) is already imported"""


@pytest.mark.parametrize("preload, seen", [([], "False"), (["wave"], "True")])
def test_a_preloaded_module_is_in_every_worker_forked_after(toy_root, tmp_path, preload, seen):
    problem = load_problem(toy_root / "problems" / SLUG)
    problem = dataclasses.replace(problem, meta={**problem.meta, "worker": {"preload": preload}})
    plan = make_plan(problem, "run", "cpu")
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    with WorkerPool(plan.confinement) as pool:
        for _ in range(2):  # the second worker too: the warm process keeps what it imported
            report = judge_guarded(Submitted.read(probe), Judge(plan, pool))
            assert report["tests"][0]["extra_data"]["calls"][0]["error"]["msg"] == seen
        assert pool._server.preloaded == set(preload)


@pytest.mark.parametrize("table", ['[worker]\npreload = "torch._dynamo"\n', '[worker]\npreload = ["torch. _dynamo"]\n',
                                   '[worker]\npreload = ["os"]\nwarm = true\n', '[worker]\npreload = [1]\n'])
def test_a_malformed_worker_table_is_one_line_of_bad_input(tmp_path, table):
    shutil.copytree(REPO / "problems" / "loss-scale-overflow", tmp_path / "loss-scale-overflow")
    toml = tmp_path / "loss-scale-overflow" / "problem.toml"
    toml.write_text(toml.read_text() + "\n" + table)
    with pytest.raises(BadInput, match=r"\[worker\] knows only preload"):
        load_problem(tmp_path / "loss-scale-overflow")


@pytest.mark.parametrize("name, how", [("encodings.mbcs", "ImportError"),  # found, yet not importable here
                                       ("unittest.__main__", "SystemExit")])  # exits, and prints its usage
def test_a_preloaded_module_the_warm_process_cannot_import_fails_the_package_in_one_line(tmp_path, monkeypatch,
                                                                                         capfd, name, how):
    shutil.copytree(REPO / "problems" / "loss-scale-overflow", tmp_path / "problems" / "loss-scale-overflow")
    (tmp_path / "solutions").mkdir()
    shutil.copy(REPO / "solutions" / "loss-scale-overflow.py", tmp_path / "solutions")
    toml = tmp_path / "problems" / "loss-scale-overflow" / "problem.toml"
    toml.write_text(toml.read_text() + f'\n[worker]\npreload = ["{name}"]\n')
    monkeypatch.setenv("JUDGE_PROBLEMS", str(tmp_path / "problems"))
    assert find_problem("loss-scale-overflow").preload == (name,)
    lines: list[str] = []
    assert not verify(["loss-scale-overflow"], mutation=False, log=lines.append)
    failed = [line for line in lines if f"[worker] preload: {name}: {how}" in line]
    assert len(failed) == 1 and str(toml) in failed[0], lines
    out, err = capfd.readouterr()
    assert "usage" not in out + err, "what the module printed stays in the warm process"
