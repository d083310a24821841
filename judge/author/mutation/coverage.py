"""Which lines of the reference each call executes, so a mutant is judged only on the cases that run it.

A mutant changes code on some lines of the reference; a case whose calls never execute those lines runs the same
code as the reference and passes, whatever the mutant is. So ``judge mutate`` judges a mutant on the cases that
execute one of its lines (the cheapest first, so that a kill costs little: the case named as killing it is the
cheapest that does, not necessarily the first a full judgement fails), and on none when no case does. Lines
outside every function body (imports, constants, class bodies, ``def`` lines with their defaults) run at import,
for every case.

The lines are recorded by an instrumented copy of the reference (:class:`Covering`): before every statement a
call records the statement's lines (a compound statement's header only: its body's statements record their
own). A statement that ran counts as running all of its lines, a short-circuited operand or an unused lambda
included: coverage may be too large, which only costs judging a mutant on a case that cannot fail it, never too
small. (``sys.settrace`` was tried first: it pays a Python call for every function torch calls in Python, which
made the finite-difference problems twenty times slower.) It runs here, on the float64 objects, as ``judge gen``
computes the expected values; author-side and trusted.
"""

from __future__ import annotations

import ast
from types import ModuleType
from typing import Any

from judge.author.reference import call_one
from judge.package.cases import Case
from judge.package.problem import Problem

RAN = "__judge_ran__"
"""the name the instrumented statements call"""
BLOCKS = ("body", "orelse", "finalbody")


def function_lines(source: str) -> frozenset[int]:
    """The lines inside some function's body: code that runs only when called."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            body = node.body if isinstance(node.body, list) else [node.body]
            lines.update(range(body[0].lineno, (node.end_lineno or body[0].lineno) + 1))
    return frozenset(lines)


def _span(stmt: ast.stmt) -> tuple[int, int]:
    """A simple statement's lines; a compound statement's header (up to its first block)."""
    inner = [getattr(stmt, f)[0].lineno for f in BLOCKS if getattr(stmt, f, None)]
    inner += [h.lineno for h in getattr(stmt, "handlers", [])]
    return stmt.lineno, (min(inner) - 1 if inner else stmt.end_lineno or stmt.lineno)


class _Instrument(ast.NodeTransformer):
    def generic_visit(self, node: ast.AST) -> ast.AST:
        blocks = {f: block for f in BLOCKS
                  if isinstance(block := getattr(node, f, None), list) and block and isinstance(block[0], ast.stmt)}
        spans = {f: [_span(stmt) for stmt in block] for f, block in blocks.items()}  # before the blocks inside change
        super().generic_visit(node)
        for field, block in blocks.items():
            marked: list[ast.stmt] = []
            for stmt, (first, last) in zip(getattr(node, field), spans[field]):
                call = ast.Call(ast.Name(RAN, ast.Load()), [ast.Constant(first), ast.Constant(max(first, last))], [])
                marked += [ast.Expr(call), stmt]
            setattr(node, field, marked)
        return node


class Covering:
    """The reference of ``problem``, instrumented, and what it ran."""

    def __init__(self, problem: Problem):
        source = problem.reference.read_text(encoding="utf-8")
        self.in_functions = function_lines(source)
        tree = ast.fix_missing_locations(_Instrument().visit(ast.parse(source)))
        self.ran: set[int] = set()
        self.module = ModuleType(f"covering_{problem.slug.replace('-', '_')}")
        self.module.__file__ = str(problem.reference)
        self.module.__dict__[RAN] = lambda first, last: self.ran.update(range(first, last + 1))
        exec(compile(tree, str(problem.reference), "exec"), self.module.__dict__)  # noqa: S102 -- the author's own code

    def run(self, case: Case) -> tuple[list[Any], list[frozenset[int]]]:
        """The reference's outputs on ``case`` (float64, rounded: the expected values) and, per call, the lines
        it ran."""
        solution, outputs, lines = self.module.Solution(), [], []
        for call in case.calls:
            self.ran.clear()
            outputs.append(call_one(solution, case, call))
            lines.append(frozenset(self.ran))
        return outputs, lines

    def runs(self, first: int, last: int, executed: frozenset[int]) -> bool:
        """Whether code on lines ``first`` to ``last`` runs on a call that executed ``executed``."""
        return any(line in executed or line not in self.in_functions for line in range(first, last + 1))
