"""Every benchmark prints the machine and the load its figures were measured under (a figure in the docs
without them cannot be reproduced), through one helper, ``benchmarks/conditions.py``."""

from __future__ import annotations

import ast
import os
import sys

import pytest

from tests.support.cli import REPO

BENCHMARKS = sorted(p for p in (REPO / "benchmarks").glob("*.py") if p.name != "conditions.py")


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.name)
def test_every_benchmark_runs_inside_the_shared_report_of_its_conditions(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imports = [n for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "conditions"]
    assert [a.name for n in imports for a in n.names] == ["reported"], path.name
    main = next(n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test))
    assert any(isinstance(n, ast.With) and ast.unparse(n.items[0].context_expr) == "reported()" for n in main.body)


def test_the_conditions_name_the_cpu_its_cores_the_load_and_the_versions(capsys):
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import conditions
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    from judge.machine import cpu_model, torch_version

    with conditions.reported():
        print("a figure")
    first, figure, last = capsys.readouterr().out.splitlines()
    assert cpu_model() in first and f"{os.cpu_count()} cores" in first and f"torch {torch_version()}" in first
    assert first.count("load average") == 1 and " / " in first and "workers at L" in first
    assert figure == "a figure" and last.startswith("at the end: load average")
