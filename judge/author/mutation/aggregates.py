"""Mutants that are not one token away: a different aggregate, an added guard, a loop stopped early.

A learner's mistake is often not a flipped operator but another rule over the same list. These
operators rewrite a whole expression or loop of the reference; :func:`.mutants.mutants` makes them after the
one-token operators, so those keep their ids:

* ``spread``: ``max(xs) - min(xs)`` to the largest neighbouring difference ``max(abs(b - a) for a, b in zip(xs,
  xs[1:]))`` and to ``xs[-1] - xs[0]``; ``xs[-1] - xs[0]`` (or ``xs[0] - xs[-1]``) to ``max(xs) - min(xs)``;
* ``each``: a builtin reduction (``any``, ``all``, ``max``, ``min``, ``sum``) over the first element only
  (``list(xs)[:1]``) and over the last only (``list(xs)[-1:]``): of a comprehension, its first ``for``'s iterable;
  otherwise the reduced iterable itself (``any`` and ``all`` over a comprehension, swapped, are ``call``'s);
* ``mean``: ``sum(...)`` to ``sum(...) / len(xs)`` (``xs`` the iterable it sums), ``sum(...) / n`` to
  ``sum(...)``, ``statistics.median`` and ``statistics.mean`` exchanged;
* ``clamp``: a value the statement may let range freely kept at or above 0, at or above 1, or at or below 1
  (``max(v, 0)``, ``max(v, 1)``, ``min(v, 1)``), and a difference made absolute (``abs(a - b)``). The values
  are each one a method rounds (the first argument of ``round`` or of a module-level helper that only rounds
  its argument, such as ``_r``; not a plain name, whose assignment is a site itself), and the arithmetic a
  function assigns to a name or returns (not a constant, or a value already under ``max``, ``min`` or ``abs``);
* ``unclamp``: a guard the reference has, dropped: ``max(v, c)`` or ``min(v, c)`` with a number or an
  upper-case constant ``c`` to ``v``;
* ``loop``: a ``for`` that accumulates (an augmented assignment, an ``append``/``extend``/``add``, an item
  assigned) stopped after its first item (``list(xs)[:1]``, as a ``break`` at the end of its body would), or
  run without its first or its last item (``list(xs)[1:]``, ``list(xs)[:-1]``).

Module-level statements (the constants) are left alone. A clamp's :attr:`.Mutant.values` is one input number on
the far side of it (``-0.5`` for ``max(v, 0)``), for the boundary inputs of :mod:`.mutant_search`.
"""

from __future__ import annotations

import ast
import copy
from typing import Iterator

Replacement = tuple[str, ast.AST]
"""(operator, the node that replaces the original), as :data:`.mutants.Replacement`"""
REDUCERS = frozenset({"any", "all", "max", "min", "sum"})
NUMERIC_CALLS = frozenset({"round", "len", "sum", "float", "int", "pow"})
"""builtins whose result is a number (``max``, ``min`` and ``abs`` are clamps already)"""
NUMERIC_MODULES = frozenset({"math", "statistics"})
ACCUMULATORS = frozenset({"append", "extend", "add"})
CLAMPS: tuple[tuple[str, int, float], ...] = (("max", 0, -0.5), ("max", 1, 0.5), ("min", 1, 1.5))
"""(builtin, bound, an input number on the far side of it)"""
MEDIANS = {"median": "mean", "mean": "median"}
"""``statistics`` functions exchanged"""


def _name(node: ast.AST, *names: str) -> bool:
    return isinstance(node, ast.Name) and (not names or node.id in names)


def _builtin_call(node: ast.AST, names: frozenset[str] | set[str]) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Name(name, ast.Load()), list(args), [])


def _index(value: ast.expr, index: int) -> ast.Subscript:
    number = ast.UnaryOp(ast.USub(), ast.Constant(-index)) if index < 0 else ast.Constant(index)
    return ast.Subscript(copy.deepcopy(value), number, ast.Load())


def _sliced(value: ast.expr, lower: int | None, upper: int | None) -> ast.Subscript:
    """``list(value)[lower:upper]``: any iterable, a generator or a dict view included."""
    def bound(v: int | None) -> ast.expr | None:
        return None if v is None else ast.UnaryOp(ast.USub(), ast.Constant(-v)) if v < 0 else ast.Constant(v)

    return ast.Subscript(_call("list", copy.deepcopy(value)), ast.Slice(bound(lower), bound(upper)), ast.Load())


def _same(a: ast.AST, b: ast.AST) -> bool:
    return ast.dump(a) == ast.dump(b)


def _literal_index(node: ast.AST) -> int | None:
    if not isinstance(node, ast.Subscript):
        return None
    index = node.slice
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub) and isinstance(index.operand, ast.Constant):
        index = ast.Constant(-index.operand.value)
    return index.value if isinstance(index, ast.Constant) and type(index.value) is int else None


def _plain(node: ast.AST) -> bool:
    """A name, attribute or subscript: safe to read twice, and to slice."""
    return isinstance(node, (ast.Name, ast.Attribute, ast.Subscript))


# -- spread: the range of a list, its neighbouring differences, its ends -------------------------------------------

def _spread(node: ast.BinOp) -> Iterator[Replacement]:
    if not isinstance(node.op, ast.Sub):
        return
    left, right = node.left, node.right
    if (_builtin_call(left, {"max"}) and _builtin_call(right, {"min"}) and len(left.args) == len(right.args) == 1
            and not left.keywords and not right.keywords and _same(left.args[0], right.args[0])
            and _plain(left.args[0])):
        xs = left.args[0]
        pairs = ast.comprehension(ast.Tuple([ast.Name("a", ast.Store()), ast.Name("b", ast.Store())], ast.Store()),
                                  _call("zip", copy.deepcopy(xs), ast.Subscript(copy.deepcopy(xs),
                                                                                ast.Slice(ast.Constant(1)),
                                                                                ast.Load())), [], 0)
        difference = _call("abs", ast.BinOp(ast.Name("b", ast.Load()), ast.Sub(), ast.Name("a", ast.Load())))
        yield "spread", _call("max", ast.GeneratorExp(difference, [pairs]))
        yield "spread", ast.BinOp(_index(xs, -1), ast.Sub(), _index(xs, 0))
    elif isinstance(left, ast.Subscript) and isinstance(right, ast.Subscript) and _same(left.value, right.value) \
            and {_literal_index(left), _literal_index(right)} == {0, -1} and _plain(left.value):
        xs = left.value
        yield "spread", ast.BinOp(_call("max", copy.deepcopy(xs)), ast.Sub(), _call("min", copy.deepcopy(xs)))


# -- each: a reduction over the first or the last element only; mean: sum and mean exchanged -----------------------

def _reduced(node: ast.Call) -> ast.expr | None:
    """What a builtin reduction iterates: its comprehension's first iterable, or its one argument."""
    if not _builtin_call(node, REDUCERS) or len(node.args) != 1 or isinstance(node.args[0], ast.Starred):
        return None
    arg = node.args[0]
    return arg.generators[0].iter if isinstance(arg, (ast.GeneratorExp, ast.ListComp, ast.SetComp)) else arg


def _each(node: ast.Call) -> Iterator[Replacement]:
    iterable = _reduced(node)
    if iterable is None:
        return
    arg = node.args[0]
    for lower, upper in ((None, 1), (-1, None)):
        sliced = _sliced(iterable, lower, upper)
        if iterable is arg:
            yield "each", ast.Call(node.func, [sliced], node.keywords)
        else:
            first, comprehension = copy.copy(arg.generators[0]), copy.copy(arg)
            first.iter, comprehension.generators = sliced, [first, *arg.generators[1:]]
            yield "each", ast.Call(node.func, [comprehension], node.keywords)


def _count(iterable: ast.expr) -> ast.Call:
    return _call("len", copy.deepcopy(iterable) if _plain(iterable) else _call("list", copy.deepcopy(iterable)))


def _mean_of_sum(node: ast.Call, divided: bool) -> Iterator[Replacement]:
    if divided or not _builtin_call(node, {"sum"}):
        return
    iterable = _reduced(node)
    if iterable is not None:
        yield "mean", ast.BinOp(node, ast.Div(), _count(iterable))


def _medians(node: ast.Call) -> Iterator[Replacement]:
    func = node.func
    if isinstance(func, ast.Attribute) and _name(func.value, "statistics") and func.attr in MEDIANS:
        yield "mean", ast.Call(ast.Attribute(func.value, MEDIANS[func.attr], ast.Load()), node.args, node.keywords)


# -- clamp and unclamp: a guard added to a value, or the reference's own guard dropped -----------------------------

def rounders(tree: ast.Module) -> frozenset[str]:
    """Module-level helpers whose whole body is ``return round(<their one parameter>, ...)`` (``_r``)."""
    found = set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or len(node.args.args) != 1:
            continue
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(body) == 1 and isinstance(body[0], ast.Return) and _builtin_call(body[0].value, {"round"}) \
                and body[0].value.args and _name(body[0].value.args[0], node.args.args[0].arg):
            found.add(node.name)
    return frozenset(found)


def _numeric(node: ast.AST) -> bool:
    """Arithmetic, ``.item()``, ``math.*``, ``statistics.*`` or a builtin that returns a number."""
    if isinstance(node, ast.BinOp):
        return not isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift, ast.MatMult))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _numeric(node.operand)
    if isinstance(node, ast.IfExp):
        return _numeric(node.body) or _numeric(node.orelse)
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute):
            return func.attr == "item" or (_name(func.value) and func.value.id in NUMERIC_MODULES)
        return _builtin_call(node, NUMERIC_CALLS) and not _builtin_call(node, {"round"})
    return False


def _clamped(node: ast.AST) -> bool:
    return _builtin_call(node, {"max", "min", "abs"})


def clamp_site(node: ast.AST, parent: ast.AST | None, field: str, index: int | None,
               helpers: frozenset[str]) -> bool:
    """Whether ``node`` (``parent.field[index]``) is a value a guard may be added to."""
    if isinstance(node, ast.Constant) or _clamped(node) or isinstance(node, ast.Starred):
        return False
    rounded = _builtin_call(parent, {"round"} | set(helpers)) and field == "args" and index == 0 and not _name(node)
    assigned = (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and _name(parent.targets[0])) or (
        isinstance(parent, ast.Return))
    return rounded or (assigned and field == "value" and _numeric(node))


def _clamp(node: ast.expr) -> Iterator[tuple[str, ast.AST, tuple[float, ...]]]:
    for name, bound, beyond in CLAMPS:
        yield "clamp", _call(name, node, ast.Constant(bound)), (beyond,)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
        yield "clamp", _call("abs", node), (-0.5,)


def _guard(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and type(node.value) in (int, float)) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and _guard(node.operand)) or (
        isinstance(node, ast.Name) and node.id.isupper())


def _unclamp(node: ast.Call) -> Iterator[Replacement]:
    if _builtin_call(node, {"max", "min"}) and len(node.args) == 2 and not node.keywords:
        first, second = node.args
        if _guard(first) != _guard(second):
            yield "unclamp", second if _guard(first) else first


# -- loop: stopped after the first item, or without the first or the last --------------------------------------

def _accumulates(node: ast.For) -> bool:
    for inner in (n for stmt in node.body for n in ast.walk(stmt)):
        if isinstance(inner, ast.AugAssign):
            return True
        if isinstance(inner, ast.Assign) and any(isinstance(t, ast.Subscript) for t in inner.targets):
            return True
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr in ACCUMULATORS:
            return True
    return False


def _loop(node: ast.For) -> Iterator[Replacement]:
    if not _accumulates(node) or node.orelse:
        return
    for lower, upper in ((None, 1), (1, None), (None, -1)):
        shortened = copy.copy(node)
        shortened.iter = _sliced(node.iter, lower, upper)
        yield "loop", shortened


def wider(node: ast.AST, parent: ast.AST | None, field: str, index: int | None, function: str,
          helpers: frozenset[str]) -> Iterator[tuple[str, ast.AST, tuple[float, ...]]]:
    """Every rewrite of ``node`` (``parent.field[index]``, in ``function``) these operators make, with the input
    numbers that may tell it from the reference. ``helpers``: the module's :func:`rounders`."""
    if function == "<module>":
        return
    if clamp_site(node, parent, field, index, helpers):
        yield from _clamp(node)
    found: Iterator[Replacement] = iter(())
    if isinstance(node, ast.BinOp):
        found = _spread(node)
        if isinstance(node.op, ast.Div) and _builtin_call(node.left, {"sum"}):
            found = iter([*found, ("mean", node.left)])
    elif isinstance(node, ast.Call):
        divided = isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Div) and field == "left"
        found = iter([*_each(node), *_mean_of_sum(node, divided), *_medians(node), *_unclamp(node)])
    elif isinstance(node, ast.For):
        found = _loop(node)
    for operator, new in found:
        yield operator, new, ()
