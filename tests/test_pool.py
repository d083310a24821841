"""One warm pool: the only owner of a fork server, restarted in one way, and every front end judges through it."""

from __future__ import annotations

import ast
import dataclasses

import pytest

from judge.judging.plan import make_plan
from judge.judging.pool import WorkerPool, shared
from judge.package.problem import load_problem
from judge.pipeline import Judge, Submitted, judge_guarded
from tests.support.cli import REFERENCE_SOURCE, REPO, SLUG

POOL_MODULE = "judge/judging/pool.py"


def test_no_module_but_the_pool_starts_a_fork_server():
    starting = []
    for path in sorted((REPO / "judge").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "ForkServer":
                starting.append(str(path.relative_to(REPO)))
    assert starting == [POOL_MODULE]


UNGUARDED = {"judge_cases", "Session"}
"""what judges without the guard: the session's case loop and the session itself (by any name that reaches them),
and a Judge's own ``judge`` and ``unjudgeable`` methods"""
UNGUARDED_USES = {("judge/pipeline.py", "judge.judge"), ("judge/pipeline.py", "judge.unjudgeable"),
                  ("judge/pipeline.py", "judge_cases"), ("judge/pipeline.py", "Session"),
                  ("judge/judging/session.py", "Session"), ("judge/judging/calibrate.py", "judge_cases"),
                  ("judge/judging/calibrate.py", "Session"), ("judge/practice/watch.py", "watcher.judge")}
"""the guard itself, the session's own module, the calibration of the reference (no submission), and the
watcher's own ``judge``, which is ``judge_guarded`` (checked below)"""


def _unguarded(node: ast.AST) -> bool:
    """A use, called or not (``run = judge.judge`` counts), of what judges without the guard."""
    if isinstance(node, ast.Name):
        return node.id in UNGUARDED
    if isinstance(node, ast.Attribute):
        return node.attr in UNGUARDED or node.attr == "judge"
    return isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "unjudgeable"  # Judge's, not data's


def test_every_front_end_judges_through_judge_guarded():
    uses = set()
    for path in sorted((REPO / "judge").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if _unguarded(node):
                uses.add((str(path.relative_to(REPO)), ast.unparse(node.func if isinstance(node, ast.Call) else node)))
    assert uses == UNGUARDED_USES
    watcher = ast.parse((REPO / "judge/practice/watch.py").read_text(encoding="utf-8"))
    method = next(n for n in ast.walk(watcher) if isinstance(n, ast.FunctionDef) and n.name == "judge")
    assert [ast.unparse(n.func) for n in ast.walk(method) if isinstance(n, ast.Call)] == ["judge_guarded"]


def _kill_server(pool: WorkerPool) -> None:
    """As a submission that kills the warm process would, and wait until it has gone."""
    server = pool._server
    pool.abort()
    server.started.process.wait(timeout=60)


@pytest.fixture
def toy_plan(toy_root):
    plan = make_plan(load_problem(toy_root / "problems" / SLUG), "submit", "cpu")
    return dataclasses.replace(plan, builds_checked=False)  # so that the pool's own record of the check shows


def test_a_warm_pool_checks_a_plan_once_replaces_a_dead_fork_server_and_voids_what_it_died_under(toy_plan, tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(REFERENCE_SOURCE)
    submitted = Submitted.read(path)
    with WorkerPool(toy_plan.confinement) as pool:
        judge = Judge(toy_plan, pool)
        assert not pool.checked(toy_plan)
        assert judge_guarded(submitted, judge)["verdict"] == "accepted"
        assert pool.checked(toy_plan)  # the next submission skips the checker
        first = pool._server
        assert judge_guarded(submitted, judge)["verdict"] == "accepted" and pool._server is first

        _kill_server(pool)  # a fork server that died between judgements is replaced at the next one...
        assert judge_guarded(submitted, judge)["verdict"] == "accepted"
        assert pool._server is not first and pool._server.alive and not pool.lost()

        died = judge_guarded(submitted, judge, on_case=lambda index, _: index == 0 and _kill_server(pool))
        assert died["verdict"] == "internal_error"  # ...and one that dies under a judgement voids it
        assert "warm worker process ended" in died["judge"]["judge_error"]
        assert judge_guarded(submitted, judge)["verdict"] == "accepted"


def test_a_fresh_pool_starts_no_fork_server(toy_plan, tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(REFERENCE_SOURCE)
    judge = Judge(toy_plan)
    assert judge_guarded(Submitted.read(path), judge)["verdict"] == "accepted"
    assert not judge.workers.warm and judge.workers._server is None and judge.workers.checked(toy_plan)


def test_the_shared_pool_is_lent_alive_kept_for_the_process_and_replaced_when_dead(toy_plan):
    with shared(toy_plan.confinement) as pool:
        first = pool._server
        assert first.alive
    try:
        with shared(toy_plan.confinement) as again:
            assert again is pool and again._server is first  # a calibration's next problem forks from it too
            _kill_server(again)
        with shared(toy_plan.confinement) as third:
            assert third is pool and third._server is not first and third._server.alive
    finally:
        pool.close()
