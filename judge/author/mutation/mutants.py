"""One-mistake mutants of a reference solution, made from its syntax tree (:mod:`ast`).

Every mutant changes one node of the reference and is the whole module again (``ast.unparse``), judged as a
submission is: a file that defines ``Solution``. The operators are the mistakes a learner makes here:

* ``compare``: ``<``/``<=`` and ``>``/``>=`` exchanged, each flipped (``<``/``>``); ``==``/``!=``, ``is``/``is not``,
  ``in``/``not in``; ``boolean``: ``and``/``or``, ``not x`` to ``x``;
* ``call``: ``any``/``all``, ``min``/``max`` (``amin``/``amax``, ``argmin``/``argmax``), ``sum``/``mean`` where both
  exist (tensor methods, ``torch.sum``); ``swap``: two neighbouring positional arguments exchanged;
* ``constant``: a number ``v`` to ``v + 1``, ``v - 1``, ``10 * v`` and ``0``; ``True``/``False``. ``round``'s
  ``ndigits`` only loses decimals: the judge accepts unrounded answers, so more decimals is the same answer;
* ``index``: ``[-1]``/``[0]`` exchanged, any other literal index and every literal slice bound one off;
* ``drop``: a statement replaced by ``pass`` (``drop-branch``: an ``if`` that returns); not the only statement of
  a block, unless an ``if`` (an ``elif``): dropping the enclosing statement covers it; not a ``with``;
* ``arithmetic``: ``+``/``-``, ``*``/``/``, ``//`` to ``/``, ``**`` to ``*``; ``-x`` to ``x``;
* ``dim``: a ``dim`` (or a reduction's first positional argument) moved among 0, 1 and -1; ``reduce``: a
  reduction's ``dim`` dropped, or ``keepdim=True`` added; ``keepdim``: its value flipped;
* ``correction``: ``unbiased`` or ``correction`` flipped, or ``correction=0`` added to a ``std``/``var``;
* ``spread``, ``each``, ``mean``, ``clamp``, ``unclamp``, ``loop``: whole rewrites, from :mod:`.aggregates`.

Annotations, docstrings, imports, decorators and the author-side ``Solution._boundaries`` (only ``judge gen``
calls it) are never mutated. A mutant whose source equals the reference's, or an earlier mutant's, is left out.
Each mutant's id hashes its function, operator and change (and how many identical changes precede it), so ids
survive edits elsewhere in the file: an author declares equivalent mutants by id.
"""

from __future__ import annotations

import ast
import copy
import hashlib
from dataclasses import dataclass
from typing import Any, Iterator

from judge.author.mutation.aggregates import rounders, wider

AUTHOR_ONLY = frozenset({"_boundaries"})
"""methods of ``Solution`` that only the author tools call (G1 probes): a mutant there is never judged"""
SKIPPED_FIELDS = frozenset({"annotation", "returns", "decorator_list", "type_params", "type_comment"})
COMPARE_SWAPS: dict[type, tuple[type, ...]] = {
    ast.Lt: (ast.LtE, ast.Gt), ast.LtE: (ast.Lt, ast.GtE), ast.Gt: (ast.GtE, ast.Lt), ast.GtE: (ast.Gt, ast.LtE),
    ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,), ast.Is: (ast.IsNot,), ast.IsNot: (ast.Is,),
    ast.In: (ast.NotIn,), ast.NotIn: (ast.In,),
}
ARITHMETIC_SWAPS: dict[type, tuple[type, ...]] = {
    ast.Add: (ast.Sub,), ast.Sub: (ast.Add,), ast.Mult: (ast.Div,), ast.Div: (ast.Mult,),
    ast.FloorDiv: (ast.Div,), ast.Pow: (ast.Mult,),
}
NAME_SWAPS = {"any": "all", "all": "any", "min": "max", "max": "min"}
"""builtins (there is no builtin mean)"""
METHOD_SWAPS = {**NAME_SWAPS, "amin": "amax", "amax": "amin", "argmin": "argmax", "argmax": "argmin",
                "sum": "mean", "mean": "sum"}
"""tensor methods and ``torch.<name>``"""
REDUCTIONS = frozenset({"sum", "mean", "std", "var", "all", "any", "amax", "amin", "max", "min", "argmax", "argmin",
                        "norm", "prod", "logsumexp"})
"""reductions whose ``dim`` (keyword, or first positional argument but for ``norm``) the ``dim`` operators move"""
SPREADS = frozenset({"std", "var"})
DIM_VALUES = (0, 1, -1)


@dataclass(frozen=True)
class Mutant:
    id: str
    """eight hex digits: the key an author declares an equivalence by"""
    operator: str
    line: int
    """the line of the reference the change starts on ..."""
    end_line: int
    """... and the line it ends on"""
    function: str
    """``Solution.diagnose``, ``_helper`` or ``<module>``"""
    before: str
    after: str
    source: str
    """the whole mutated module"""
    values: tuple[float, ...] = ()
    """input values that may tell it from the reference: a changed constant's value and the midpoint to its
    new one, the numbers a changed comparison compares with (:func:`boundary_values`), a clamp's far side"""

    @property
    def change(self) -> str:
        """``before -> after``, long expressions cut to the part that differs and a little around it"""
        return " -> ".join(_differing(self.before, self.after))

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "operator": self.operator, "line": self.line, "function": self.function,
                "before": self.before, "after": self.after}


# -- operators: a node (and where it sits) to its replacements -----------------------------------------------------

Replacement = tuple[str, ast.AST]
"""(operator, the node that replaces the original)"""


def _literal_int(node: ast.AST) -> int | None:
    """The value of ``3`` or ``-1``, else None (bools are not indices)."""
    value = _literal_number(node)
    return value if type(value) is int else None


def _literal_number(node: ast.AST) -> int | float | None:
    """The value of a number literal (``3``, ``-0.5``), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _literal_number(node.operand)
        return None if inner is None else -inner
    return node.value if isinstance(node, ast.Constant) and type(node.value) in (int, float) else None


def _number(value: int | float) -> ast.expr:
    return ast.UnaryOp(ast.USub(), ast.Constant(-value)) if value < 0 else ast.Constant(value)


def _numbers(value: int | float) -> list[int | float]:
    found: list[int | float] = []
    for new in (value + 1, value - 1, value * 10, type(value)(0)):
        if new != value and new not in found:
            found.append(new)
    return found


def _with(node: ast.AST, **fields: Any) -> ast.AST:
    new = copy.copy(node)
    for name, value in fields.items():
        setattr(new, name, value)
    return new


def _compare(node: ast.Compare) -> Iterator[Replacement]:
    for i, op in enumerate(node.ops):
        for swap in COMPARE_SWAPS.get(type(op), ()):
            yield "compare", _with(node, ops=[*node.ops[:i], swap(), *node.ops[i + 1:]])


def _callee(node: ast.Call) -> str | None:
    """``sum`` for ``x.sum()``, ``torch.sum(x)`` and ``sum(x)``."""
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _keyword(node: ast.Call, name: str) -> ast.keyword | None:
    return next((k for k in node.keywords if k.arg == name), None)


def _dim_argument(node: ast.Call) -> tuple[str, int] | None:
    """Where a reduction's dim is: ("keyword", index) or ("positional", 0)."""
    name = _callee(node)
    for index, keyword in enumerate(node.keywords):
        if keyword.arg in ("dim", "axis"):
            return "keyword", index
    is_method = isinstance(node.func, ast.Attribute) and not (
        isinstance(node.func.value, ast.Name) and node.func.value.id == "torch")
    if name in REDUCTIONS and name != "norm" and is_method and node.args and _literal_int(node.args[0]) is not None:
        return "positional", 0
    return None


def _dims(node: ast.Call) -> Iterator[Replacement]:
    where = _dim_argument(node)
    if where is None:
        return
    kind, index = where
    value = node.keywords[index].value if kind == "keyword" else node.args[0]
    current = _literal_int(value)
    for new in DIM_VALUES:
        if current is not None and new != current:
            if kind == "keyword":
                keywords = list(node.keywords)
                keywords[index] = ast.keyword(node.keywords[index].arg, _number(new))
                yield "dim", _with(node, keywords=keywords)
            else:
                yield "dim", _with(node, args=[_number(new), *node.args[1:]])
    if _callee(node) in REDUCTIONS:
        dropped = ({"keywords": [k for i, k in enumerate(node.keywords) if i != index]} if kind == "keyword"
                   else {"args": node.args[1:]})
        yield "reduce", _with(node, **dropped)
        if _keyword(node, "keepdim") is None:
            yield "reduce", _with(node, keywords=[*node.keywords, ast.keyword("keepdim", ast.Constant(True))])


def _call(node: ast.Call) -> Iterator[Replacement]:
    func, name = node.func, _callee(node)
    if isinstance(func, ast.Name) and name in NAME_SWAPS:
        yield "call", _with(node, func=ast.Name(NAME_SWAPS[name], ast.Load()))
    elif isinstance(func, ast.Attribute) and name in METHOD_SWAPS:
        yield "call", _with(node, func=_with(func, attr=METHOD_SWAPS[name]))
    for i in range(len(node.args) - 1):
        first, second = node.args[i], node.args[i + 1]
        starred = isinstance(first, ast.Starred) or isinstance(second, ast.Starred)
        if not starred and ast.dump(first) != ast.dump(second):
            yield "swap", _with(node, args=[*node.args[:i], second, first, *node.args[i + 2:]])
    yield from _dims(node)
    if name in SPREADS and _keyword(node, "unbiased") is None and _keyword(node, "correction") is None:
        yield "correction", _with(node, keywords=[*node.keywords, ast.keyword("correction", ast.Constant(0))])


def _round_digits(parent: ast.AST | None, field: str, index: int | None) -> bool:
    """Whether the node is the ``ndigits`` of ``round(x, ndigits)``."""
    return (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "round"
            and field == "args" and index == 1)


def _constant(node: ast.Constant, parent: ast.AST | None, field: str, index: int | None) -> Iterator[Replacement]:
    keyword = parent.arg if isinstance(parent, ast.keyword) else None
    if keyword in ("dim", "axis") or (isinstance(parent, ast.Call) and field == "args" and index == 0
                                      and _dim_argument(parent) == ("positional", 0)):
        return  # the dim operators move it
    if type(node.value) is bool:
        operator = {"keepdim": "keepdim", "unbiased": "correction"}.get(keyword, "constant")
        yield operator, ast.Constant(not node.value)
    elif type(node.value) in (int, float):
        if _round_digits(parent, field, index):
            values = [v for v in (node.value - 1, 0) if 0 <= v < node.value]
        else:
            values = [1 - node.value] if keyword == "correction" and node.value in (0, 1) else _numbers(node.value)
        for value in values:
            yield "correction" if keyword == "correction" else "constant", _number(value)


def _subscript(node: ast.Subscript) -> Iterator[Replacement]:
    index = _literal_int(node.slice)
    if index is not None:
        options = [0] if index == -1 else [-1, 1] if index == 0 else [index + 1, index - 1]
        for new in options:
            yield "index", _with(node, slice=_number(new))
    elif isinstance(node.slice, ast.Slice):
        for bound in ("lower", "upper"):
            value = _literal_int(getattr(node.slice, bound)) if getattr(node.slice, bound) is not None else None
            for new in ([] if value is None else [value + 1, value - 1]):
                yield "index", _with(node, slice=_with(node.slice, **{bound: _number(new)}))


def _binary(node: ast.BinOp | ast.AugAssign) -> Iterator[Replacement]:
    for swap in ARITHMETIC_SWAPS.get(type(node.op), ()):
        yield "arithmetic", _with(node, op=swap())


def _returns(node: ast.If) -> bool:
    return any(isinstance(n, ast.Return) for stmt in node.body for n in ast.walk(stmt))


def _statement(node: ast.stmt, sole: bool) -> Iterator[Replacement]:
    if isinstance(node, (ast.Pass, ast.With, ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Global,
                         ast.Nonlocal)) or (sole and not isinstance(node, ast.If)):
        return
    yield ("drop-branch" if isinstance(node, ast.If) and _returns(node) else "drop"), ast.Pass()


def replacements(node: ast.AST, parent: ast.AST | None, field: str, index: int | None,
                 sole: bool) -> Iterator[Replacement]:
    """Every one-mistake replacement of ``node``, which is ``parent.field[index]`` (``sole``: a statement alone
    in its block)."""
    if isinstance(node, ast.stmt):
        yield from _statement(node, sole)
    if isinstance(node, ast.Compare):
        yield from _compare(node)
    elif isinstance(node, ast.BoolOp):
        yield "boolean", _with(node, op=ast.Or() if isinstance(node.op, ast.And) else ast.And())
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)) and _literal_int(node) is None:
        yield ("boolean" if isinstance(node.op, ast.Not) else "arithmetic"), node.operand
    elif isinstance(node, (ast.BinOp, ast.AugAssign)):
        yield from _binary(node)
    elif isinstance(node, ast.Call):
        yield from _call(node)
    elif isinstance(node, ast.Subscript):
        yield from _subscript(node)
    elif isinstance(node, ast.Constant):
        yield from _constant(node, parent, field, index)


# -- where: every node of the reference that may be mutated --------------------------------------------------------

Site = tuple[ast.AST, ast.AST, str, "int | None", str, bool]
"""(node, parent, field, index in the field's list or None, the enclosing function, alone in its block)"""


def _docstring(node: ast.AST) -> ast.AST | None:
    body = getattr(node, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[0]
    return None


def _children(node: ast.AST) -> Iterator[tuple[str, int | None, ast.AST]]:
    skip = _docstring(node)
    for field, value in ast.iter_fields(node):
        if field in SKIPPED_FIELDS:
            continue
        if isinstance(node, ast.Subscript) and field == "slice" and (
                _literal_int(value) is not None or isinstance(value, ast.Slice)):
            continue  # literal indices and slice bounds are the index operator's
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, ast.AST) and item is not skip:
                    yield field, i, item
        elif isinstance(value, ast.AST):
            yield field, None, value


def sites(tree: ast.Module) -> Iterator[Site]:
    """Every node that may be mutated, in source order, depth first."""
    def walk(node: ast.AST, function: str, prefix: str) -> Iterator[Site]:
        for field, index, child in _children(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                continue
            name, inner_prefix = function, prefix
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if prefix == "Solution." and child.name in AUTHOR_ONLY:
                    continue
                name = f"{prefix}{child.name}"
            elif isinstance(child, ast.ClassDef):
                inner_prefix = f"{prefix}{child.name}."
            siblings = getattr(node, field)
            sole = isinstance(child, ast.stmt) and isinstance(siblings, list) and len(
                [s for s in siblings if s is not _docstring(node)]) == 1
            yield child, node, field, index, name, sole
            yield from walk(child, name, inner_prefix)

    yield from walk(tree, "<module>", "")


def _put(parent: ast.AST, field: str, index: int | None, value: ast.AST) -> None:
    if index is None:
        setattr(parent, field, value)
    else:
        getattr(parent, field)[index] = value


def _first_line(text: str) -> str:
    """A statement's first line (`` ...`` when it has more): a dropped block is named by its header."""
    lines = text.strip().splitlines() or [text]
    return lines[0] + (" ..." if len(lines) > 1 else "")


def _differing(before: str, after: str, width: int = 90, context: int = 24) -> tuple[str, str]:
    if len(before) <= width and len(after) <= width:
        return before, after
    start = next((i for i, (a, b) in enumerate(zip(before, after)) if a != b), min(len(before), len(after)))
    end = 0
    while end < min(len(before), len(after)) - start and before[-1 - end] == after[-1 - end]:
        end += 1
    cut = max(0, start - context)

    def part(text: str) -> str:
        tail = len(text) - max(0, end - context)
        shown = ("..." if cut else "") + text[cut:tail] + ("..." if tail < len(text) else "")
        return shown if len(shown) <= width else shown[:width - 3] + "..."

    return part(before), part(after)


def _named_numbers(tree: ast.Module) -> dict[str, float]:
    """Module-level ``NAME = number`` constants."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = _literal_number(node.value)
            if value is not None:
                found[node.targets[0].id] = value
    return found


def boundary_values(node: ast.AST, new: ast.AST, names: dict[str, float]) -> tuple[float, ...]:
    """Where an input tells ``new`` from ``node``: between a constant's two values, or at a threshold a
    comparison compares with (a tie, for ``>`` against ``>=``)."""
    old, changed = _literal_number(node), _literal_number(new)
    if old is not None and changed is not None:
        return tuple(dict.fromkeys((old, (old + changed) / 2)))
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        found = [_literal_number(o) if not isinstance(o, ast.Name) else names.get(o.id) for o in operands]
        return tuple(dict.fromkeys(v for v in found if v is not None))
    return ()


def mutants(source: str) -> list[Mutant]:
    """Every distinct mutant of ``source``, in source order (one-token ones first: a rewrite never takes their ids)."""
    tree, made, occurrences = ast.parse(source), [], {}
    seen, names, helpers, where = {ast.unparse(tree)}, _named_numbers(tree), rounders(tree), list(sites(tree))
    edits = [(s, op, new, boundary_values(s[0], new, names)) for s in where for op, new in replacements(*s[:4], s[5])]
    rewrites = [(s, op, new, values) for s in where for op, new, values in wider(*s[:5], helpers)]
    for (node, parent, field, index, function, _), operator, new, values in edits + rewrites:
        _put(parent, field, index, new)
        try:
            mutated = ast.unparse(tree)
        finally:
            _put(parent, field, index, node)
        if mutated in seen:
            continue
        seen.add(mutated)
        before, after = _first_line(ast.unparse(node)), _first_line(ast.unparse(new))
        key = (function, operator, before, after)
        occurrences[key] = occurrences.get(key, 0) + 1
        digest = hashlib.sha256("\0".join([*key, str(occurrences[key])]).encode()).hexdigest()[:8]
        line = getattr(node, "lineno", 0)
        made.append(Mutant(digest, operator, line, getattr(node, "end_lineno", None) or line, function, before,
                           after, mutated, values))
    return sorted(made, key=lambda m: m.line)
