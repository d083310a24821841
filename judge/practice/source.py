"""Turn code written in a notebook into the source of a submission file.

Only source text travels to the judge's worker, never a live object, so a notebook is judged exactly like a file.
What travels:

* for ``check(slug, Solution)``: every top-level import the notebook has run (but the judge's own), then the latest top-level
  definition of every name in its cells: functions, classes and constants with a literal value
  (``EPS = 1e-5``), in the order they were last defined, so helpers travel with the class. Nothing else runs
  again in the judge: a cell's prints, experiments and ``check`` calls stay in the notebook. When the class is
  not named ``Solution``, ``Solution = <its name>`` is added.
* for a ``%%judge`` cell: every top-level import the notebook has run, then the cell itself, as a file.

A class defined in a module file is assembled the same way from that file. Cells that do not parse are skipped:
the class in the kernel came from a cell that did.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any

from judge.errors import BadInput
from judge.messages import Said

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def _literal_name(node: ast.stmt) -> str | None:
    """The name a top-level ``NAME = <literal>`` (or ``NAME: T = <literal>``) binds; None for anything else."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        name, value = node.targets[0].id, node.value
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
        name, value = node.target.id, node.value
    else:
        return None
    try:
        ast.literal_eval(value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return name


def _definition_text(lines: list[str], node: Definition) -> str:
    """The definition as written, decorators and comments inside it included."""
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return "\n".join(lines[first - 1:node.end_lineno])


def _is_the_judge(module: str) -> bool:
    return module == "judge" or module.startswith("judge.")


def _without_the_judge(node: ast.Import | ast.ImportFrom) -> ast.Import | ast.ImportFrom | None:
    """The import less the judge itself (``from judge import check``): the notebook's tool, never the solution's,
    and outside what a worker may import (:mod:`judge.worker.footprint`); None when nothing else is left."""
    if isinstance(node, ast.ImportFrom):
        return None if node.level == 0 and _is_the_judge(node.module or "") else node
    names = [alias for alias in node.names if not _is_the_judge(alias.name)]
    return ast.Import(names=names) if names else None


def imports(cells: list[str]) -> list[str]:
    """Every top-level import in ``cells`` but the judge's own, once each, ``from __future__`` ones first."""
    found: dict[str, None] = {}
    for text in cells:
        tree = _parse(text)
        for node in tree.body if tree else []:
            kept = _without_the_judge(node) if isinstance(node, (ast.Import, ast.ImportFrom)) else None
            if kept is not None:
                found[ast.unparse(kept)] = None
    return sorted(found, key=lambda line: not line.startswith("from __future__"))


def definitions(cells: list[str]) -> dict[str, tuple[ast.stmt, str]]:
    """The latest top-level definition of every name, with its code, in the order they were last defined."""
    found: dict[str, tuple[ast.stmt, str]] = {}
    for text in cells:
        tree, lines = _parse(text), text.split("\n")
        for node in tree.body if tree else []:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name, code = node.name, _definition_text(lines, node)
            elif (name := _literal_name(node)) is not None:
                code = ast.unparse(node)
            else:
                continue
            found.pop(name, None)
            found[name] = (node, code)
    return found


def class_submission(cells: list[str], name: str) -> str:
    """The submission for the class ``name`` defined in ``cells`` (see the module docstring)."""
    found = definitions(cells)
    if not isinstance(found.get(name, (None,))[0], ast.ClassDef):
        raise BadInput("check_source_missing", name=name)
    parts = ["\n".join(imports(cells)), *(code for _, code in found.values())]
    if name != "Solution":
        parts.append(f"Solution = {name}")
    return "\n\n\n".join(parts) + "\n"


def cell_submission(cells: list[str], cell: str) -> str:
    """The submission for a ``%%judge`` cell: the notebook's imports, then the cell."""
    return "\n".join([*imports(cells), "", cell.rstrip("\n"), ""])


JUDGE_MAGIC = "%%judge"
"""the first line of a cell judged as a file"""


def notebook_cells() -> list[str]:
    """The cells the running IPython session has executed, in order; none outside IPython. A ``%%judge`` cell
    counts as the code it judged, which it also defined in the kernel (:func:`judge.practice.notebook.define`)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return []
    shell = get_ipython()
    if shell is None:
        return []
    history = shell.history_manager
    return [raw.split("\n", 1)[1] if raw.startswith(JUDGE_MAGIC) and "\n" in raw else parsed
            for parsed, raw in zip(history.input_hist_parsed, history.input_hist_raw)]


def source_of(solution: Any) -> str:
    """A submission from a class (its notebook's cells, or its module's file) or from source text."""
    if isinstance(solution, str):
        return solution
    if not isinstance(solution, type):
        raise BadInput("check_not_a_class", kind=Said("object_of_type", name=type(solution).__name__))
    try:
        cells = [inspect.getsource(inspect.getmodule(solution))]
    except (OSError, TypeError):
        cells = notebook_cells()
    return class_submission(cells, solution.__name__)
