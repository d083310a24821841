"""The inputs a statement rules out, as data: ``[[domain]]`` of problem.toml.

A statement often narrows what a method may be given ("the loss at step 0 is at most 1e4, so a stopped run has
recorded at least one step"). Such a clause is written here as a rule on one value of a call's input, so tools
can hold it: ``judge gen`` rejects a case that breaks one, ``judge verify`` checks every stored case against
them, and the inputs ``judge mutate`` generates keep to them. A mutant that differs from the reference only on
inputs a rule excludes is then equivalent on the problem's whole input space, shown by the search, not by an
author's word::

    [[domain]]
    method = "diagnose_run"
    argument = "record"        # a parameter of the method's signature
    key = "stopped_at"         # optional: a dotted path inside it (dict keys, list indices; * for each item)
    exclude = [0]              # optional: values it never takes
    min = 0                    # optional: the least value it takes (inclusive); max likewise
    because = "the loss at step 0 is at most 1e4, so a stopped run has recorded at least one step"

An argument given as an object (``"$config"``) is held to the rule through its specification in the case file.
A value the key does not reach (an optional field left out) is not constrained; ``*`` in a key stands for every
item of a list (every value of a dict): ``key = "*.grad_norm"`` holds each record of a log.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

FIELDS = frozenset({"method", "argument", "key", "exclude", "min", "max", "because"})


@dataclass(frozen=True)
class Rule:
    method: str
    argument: str
    position: int
    """the argument's index among the call's arguments (its place in the signature, ``self`` left out)"""
    key: tuple[str, ...]
    exclude: tuple[Any, ...]
    least: float | None
    most: float | None
    because: str

    @property
    def where(self) -> str:
        """``diagnose_run(record).stopped_at``"""
        return f"{self.method}({self.argument})" + "".join(f".{k}" for k in self.key)

    def broken_by(self, value: Any) -> bool:
        if value in self.exclude and type(value) is not bool:
            return True
        number = type(value) in (int, float)
        return number and (self.least is not None and value < self.least or self.most is not None and value > self.most)


def parameters(signature: str) -> list[str]:
    """The parameter names of a ``[[methods]]`` signature, ``self`` left out."""
    head = signature.split("->")[0].strip()
    function = ast.parse(f"def {head}: pass").body[0]
    assert isinstance(function, ast.FunctionDef)
    return [a.arg for a in function.args.args if a.arg != "self"]


def parse(meta: dict[str, Any]) -> list[Rule]:
    """``[[domain]]`` of a problem.toml whose ``[[methods]]`` are checked; a ValueError names what is wrong."""
    tables = meta.get("domain", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise ValueError("[[domain]] must be tables")
    signatures = {m["name"]: m.get("signature", "") for m in meta["methods"]}
    rules = []
    for table in tables:
        if not set(table) <= FIELDS or not {"method", "argument", "because"} <= set(table):
            raise ValueError(f"[[domain]] takes {', '.join(sorted(FIELDS))}; method, argument and because are needed")
        if table["method"] not in signatures:
            raise ValueError(f"[[domain]] names method {table['method']!r}, which [[methods]] does not have")
        try:
            known = parameters(signatures[table["method"]])
        except SyntaxError:
            known = []
        if table["argument"] not in known:
            raise ValueError(f"[[domain]] names argument {table['argument']!r} of {table['method']}, whose "
                             f"signature has {', '.join(known) or 'none'}")
        bounds = [table.get(b) for b in ("min", "max")]
        if not isinstance(table.get("exclude", []), list) or any(
                b is not None and type(b) not in (int, float) for b in bounds):
            raise ValueError("[[domain]] exclude is a list of values, min and max are numbers")
        if not isinstance(table["because"], str) or not table["because"].strip():
            raise ValueError("[[domain]] because: the statement's clause, in words")
        key = tuple(str(table.get("key", "")).split(".")) if table.get("key") else ()
        rules.append(Rule(table["method"], table["argument"], known.index(table["argument"]), key,
                          tuple(table.get("exclude", [])), bounds[0], bounds[1], table["because"]))
    return rules


def _reach(value: Any, key: tuple[str, ...]) -> list[Any]:
    """Every value ``key`` reaches in ``value``: one, none (a key it lacks) or, through ``*``, each item of a list
    (each value of a dict)."""
    if not key:
        return [value]
    part, rest = key[0], key[1:]
    if part == "*" and isinstance(value, (list, dict)):
        return [v for item in (value.values() if isinstance(value, dict) else value) for v in _reach(item, rest)]
    if isinstance(value, dict) and part in value:
        return _reach(value[part], rest)
    if isinstance(value, list) and part.lstrip("-").isdigit() and -len(value) <= int(part) < len(value):
        return _reach(value[int(part)], rest)
    return []


def broken(rules: list[Rule], raw: dict[str, Any]) -> list[tuple[int, Rule, Any]]:
    """Every ``(call index, rule, value)`` where a case file's call breaks a rule."""
    found = []
    for index, call in enumerate(raw.get("calls", [])):
        args = call.get("args", [])
        for rule in (r for r in rules if r.method == call.get("method") and r.position < len(args)):
            given = args[rule.position]
            if isinstance(given, str) and given.startswith("$"):
                given = raw.get("objects", {}).get(given[1:])
            found += [(index, rule, value) for value in _reach(given, rule.key) if rule.broken_by(value)]
    return found
