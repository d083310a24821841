"""Where the judge's code and templates name message keys, found statically (the AST of every module of ``judge/``
and the templates' ``say(...)``): tests/test_messages.py checks them against the catalogue, tests/test_zh.py the
keys of the learner's Chinese path."""

from __future__ import annotations

import ast
import re
import string
from dataclasses import dataclass
from pathlib import Path

from judge.messages import CATALOGUE
from tests.support.cli import REPO

PACKAGE = REPO / "judge"
CATALOGUE_MODULES = (PACKAGE / "messages.py", PACKAGE / "messages_author.py", PACKAGE / "messages_learner.py",
                     PACKAGE / "messages_machine.py", PACKAGE / "messages_cases.py")
KEY_POSITION = {"say": 0, "say_in": 1, "BadInput": 0, "InternalError": 0, "JudgeError": 0, "_judges_note": 1,
                "_comment": 1, "said": 1, "Said": 0, "phrase": 0, "fail": 1, "type": 3, "unsupported": 0, "SaidText": 0,
                "Native": 1, "NotASolution": 0, "line": 1}
"""the callables that take a message key, and where: each passes it, with its other keyword arguments as the
fields, to ``messages.say`` (``judge.errors``, ``judge.judging.session``, ``judge.package.snippet``,
``judge.serve.pages``, ``judge.command.line``; a case's checker, ``judge.package.kinds.base.Checker``: its
``fail`` and ``type``), or to the parent as a key and fields (``judge.worker.main.NotASolution``)"""
KEY_KEYWORD = {"_strings": "key"}
"""callables that take a key as a keyword (``judge.serve.pages``)"""
TEMPLATE_SAY = re.compile(r"""say(?:_code)?\(\s*["'](\w+)["']([^)]*)\)""")


@dataclass(frozen=True)
class Site:
    where: str
    key: str
    """the key, or for an f-string the regular expression of the keys it can be"""
    fields: frozenset[str]
    open_ended: bool
    """fields are also passed as ``**mapping``: only the named ones can be checked"""
    pattern: bool = False

    def keys(self) -> list[str]:
        return [k for k in CATALOGUE if re.fullmatch(self.key, k)] if self.pattern else [self.key]


def placeholders(key: str) -> frozenset[str]:
    return frozenset(re.split(r"[.\[]", name)[0] for _, name, _, _ in string.Formatter().parse(CATALOGUE[key])
                     if name is not None)


def _name(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _key_node(call: ast.Call) -> ast.expr | None:
    name = _name(call.func)
    if name in KEY_POSITION and len(call.args) > KEY_POSITION[name]:
        return call.args[KEY_POSITION[name]]
    if name in KEY_KEYWORD:
        return next((k.value for k in call.keywords if k.arg == KEY_KEYWORD[name]), None)
    return None


def _pattern(node: ast.JoinedStr) -> str:
    return "".join(re.escape(part.value) if isinstance(part, ast.Constant) else r"\w+" for part in node.values)


def _modules() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(PACKAGE.rglob("*.py"))]


def code_sites() -> list[Site]:
    sites = []
    for path, tree in _modules():
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            node = _key_node(call)
            named = frozenset(k.arg for k in call.keywords if k.arg and k.arg != KEY_KEYWORD.get(_name(call.func)))
            open_ended = any(k.arg is None for k in call.keywords)
            where = f"{path.relative_to(REPO)}:{call.lineno}"
            sites += [Site(where, key, named, open_ended, pattern) for key, pattern in _keys_of(node)]
    return sites


def _keys_of(node: ast.expr | None) -> list[tuple[str, bool]]:
    """The keys a key argument can be, written in it: a string, an f-string (a pattern), either branch of a
    conditional; nothing for a key chosen elsewhere."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [(node.value, False)]
    if isinstance(node, ast.JoinedStr):
        return [(_pattern(node), True)]
    if isinstance(node, ast.IfExp):
        return _keys_of(node.body) + _keys_of(node.orelse)
    return []


def template_sites() -> list[Site]:
    sites = []
    for path in sorted(PACKAGE.rglob("*.j2")):
        for match in TEMPLATE_SAY.finditer(path.read_text(encoding="utf-8")):
            named = frozenset(re.findall(r"(\w+)\s*=", match[2]))
            sites.append(Site(str(path.relative_to(REPO)), match[1], named, "**" in match[2]))
    return sites


def mentioned() -> set[str]:
    """Every key written as a string anywhere in the package but the catalogue (where keys chosen at run time,
    from a table or a conditional, are written)."""
    return {node.value for path, tree in _modules() if path not in CATALOGUE_MODULES for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in CATALOGUE}
