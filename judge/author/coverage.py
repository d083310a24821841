"""Which lines of the reference each case executes, so a mutant is judged only on the cases that run it.

A mutant changes code on some lines of the reference; a case whose calls never execute those lines runs the same
code as the reference and passes, whatever the mutant is. So ``judge mutate`` judges a mutant on the cases that
execute one of its lines (in their order, samples first, so the first that fails is the one a full judgement
finds first), and on none when no case does. Lines outside every function body (imports, constants, class
bodies, ``def`` lines with their defaults) run at import, for every case.

The reference runs here, traced (``sys.settrace``, for the reference's own file only), once per case on its
float64 objects, as ``judge gen`` computes the expected values; author-side and trusted.
"""

from __future__ import annotations

import ast
import sys
from types import FrameType, ModuleType
from typing import Any, Callable

from judge.author.reference import call_one
from judge.package.cases import Case


def function_lines(source: str) -> frozenset[int]:
    """The lines inside some function's body: code that runs only when called."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            body = node.body if isinstance(node.body, list) else [node.body]
            lines.update(range(body[0].lineno, (node.end_lineno or body[0].lineno) + 1))
    return frozenset(lines)


def traced(module: ModuleType, case: Case) -> tuple[list[Any], list[frozenset[int]]]:
    """The reference's outputs on ``case`` (float64, rounded: the expected values) and, per call, the lines of
    its file that ran."""
    solution, outputs, lines = module.Solution(), [], []
    for call in case.calls:
        output, seen = _traced_call(module, lambda: call_one(solution, case, call))
        outputs.append(output)
        lines.append(seen)
    return outputs, lines


def _traced_call(module: ModuleType, run: Callable[[], Any]) -> tuple[Any, frozenset[int]]:
    filename, seen = module.__file__, set()

    def local(frame: FrameType, event: str, _arg: Any) -> Callable | None:
        if event == "line":
            seen.add(frame.f_lineno)
        return local

    def tracer(frame: FrameType, event: str, _arg: Any) -> Callable | None:
        if frame.f_code.co_filename != filename:
            return None
        seen.add(frame.f_lineno)
        return local

    before = sys.gettrace()
    sys.settrace(tracer)
    try:
        output = run()
    finally:
        sys.settrace(before)
    return output, frozenset(seen)


def runs(first: int, last: int, executed: frozenset[int], in_functions: frozenset[int]) -> bool:
    """Whether code on lines ``first`` to ``last`` runs on a case that executed ``executed``."""
    span = range(first, last + 1)
    return any(line in executed or line not in in_functions for line in span)
