"""Judging from a notebook: what source travels, and a real notebook executed with nbclient."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap

import pytest

from judge.errors import BadInput
from judge.practice import history
from judge.practice.source import cell_submission, class_submission
from tests.support.cli import REFERENCE_SOURCE, REPO, SLUG

CELLS = [
    "import torch\nfrom typing import List",
    "EPS = 1e-5\nx = torch.randn(3)\nprint(x)\nSCALE = compute()",
    "this cell does not parse (",
    textwrap.dedent("""\
        import torch.nn as nn

        def helper(a):
            return a

        class Solution:  # my first try
            def f(self, m: nn.Module):
                return helper(1) + EPS

        check("x", Solution)
        """),
    "def helper(a):\n    return 2 * a\n",
]


def test_a_class_travels_with_imports_and_latest_definitions_only():
    source = class_submission(CELLS, "Solution")
    assert source == textwrap.dedent("""\
        import torch
        from typing import List
        import torch.nn as nn


        EPS = 1e-05


        class Solution:  # my first try
            def f(self, m: nn.Module):
                return helper(1) + EPS


        def helper(a):
            return 2 * a
        """)
    assert "Solution = Mine" in class_submission([*CELLS, "class Mine(Solution):\n    pass\n"], "Mine")
    with pytest.raises(BadInput, match="cannot find the source of class Missing"):
        class_submission(CELLS, "Missing")


def test_a_judge_cell_travels_whole_after_the_imports():
    assert cell_submission(CELLS, "class Solution:\n    pass\n") == (
        "import torch\nfrom typing import List\nimport torch.nn as nn\n\nclass Solution:\n    pass\n")


def test_importing_judge_and_checking_source_never_imports_torch(tmp_path):
    """The judge's own process stays light: torch runs only in the worker."""
    reference = str(REPO / "solutions" / f"{SLUG}.py")
    script = (f"import sys\nfrom judge import check\nresult = check({SLUG!r}, open({reference!r}).read())\n"
              "print(result.verdict, 'torch' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.stdout.splitlines()[-1] == "accepted False", done.stderr
    assert "accepted" in done.stdout.splitlines()[0]  # the text report was printed, its verdict first


NOTEBOOK_DEPENDENCIES = ("nbclient", "nbformat", "ipykernel")


@pytest.mark.skipif(any(importlib.util.find_spec(m) is None for m in NOTEBOOK_DEPENDENCIES),
                    reason="needs the 'notebook' extra: pip install -e '.[notebook]'")
def test_a_notebook_judges_its_solution(tmp_path, monkeypatch):
    import nbformat
    from ipykernel.kernelspec import write_kernel_spec
    from nbclient import NotebookClient

    write_kernel_spec(path=str(tmp_path / "jupyter" / "kernels" / "judge-test"))  # this very interpreter
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))
    wrong = REFERENCE_SOURCE.replace("'std': _r(x.std())", "'std': _r(x.std(correction=0))")
    relu = (REPO / "solutions" / "dead-relu-detector.py").read_text()
    cells = ["%load_ext judge", wrong,
             f"from judge import check\nresult = check({SLUG!r}, Solution)\nprint('verdict:', result.verdict)",
             "%%judge dead-relu-detector\n" + relu, "%%judge\nclass Solution: pass",
             f"%%judge {SLUG}\n" + REFERENCE_SOURCE,
             f"print('after the cell:', check({SLUG!r}, Solution).verdict)"]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    client = NotebookClient(notebook, kernel_name="judge-test", timeout=300,
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = [cell.outputs for cell in notebook.cells]

    checked = next(o for o in outputs[2] if o.output_type == "display_data").data
    assert 'class="judge-report"' in checked["text/html"] and "wrong_answer" in checked["text/html"]
    assert "population-std-activation" in checked["text/html"]
    assert "hint: population-std-activation" in checked["text/plain"]
    assert any(o.get("text") == "verdict: wrong_answer\n" for o in outputs[2])
    magic = next(o for o in outputs[3] if o.output_type == "display_data").data
    assert '<strong class="accepted">accepted</strong>' in magic["text/html"]
    assert [o.text for o in outputs[4]] == [
        "judge: usage: %%judge <problem> [--submit] [--lang zh] at the top of a cell that defines class Solution\n"]
    recorded = history.attempts()
    # the %%judge cell defined the class it judged in the kernel: check() judges it, not the wrong one before it
    assert any(o.get("text") == "after the cell: accepted\n" for o in outputs[6])
    assert [(a.problem, a.verdict, a.source) for a in recorded] == [
        (SLUG, "wrong_answer", "notebook"), ("dead-relu-detector", "accepted", "notebook"),
        (SLUG, "accepted", "notebook"), (SLUG, "accepted", "notebook")]


def test_the_judges_own_imports_stay_in_the_notebook():
    """``from judge import check`` is the notebook's tool: a worker cannot import the judge's front ends (they are
    outside its footprint), so a submission that carried it was a compile error at L1 and L2."""
    from judge.practice.source import imports

    cells = ["import torch\nfrom judge import check\nimport judge.practice.notebook as nb\nimport judge, math",
             "from judgement import x"]
    assert imports(cells) == ["import torch", "import math", "from judgement import x"]
