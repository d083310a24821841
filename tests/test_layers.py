"""Data flows one way: no module of the judge imports one of a higher layer (lazy imports inside functions too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REPO

LAYERS: list[set[str]] = [
    {"judge.errors", "judge.messages", "judge.machine", "judge.places"},
    {"judge.package"},
    {"judge.worker"},
    {"judge.judging"},
    {"judge.report"},
    {"judge.pipeline"},
    {"judge.author", "judge.practice", "judge.grading", "judge.platforms", "judge.serve", "judge.doctor", "judge.cli",
     "judge.__main__"},
]
"""low to high; a module may import its own layer and the layers below it"""
ROOT = "judge"
"""the package itself: importing any module runs it, and it reaches the front ends only inside the functions a
notebook calls, so it belongs to no layer (``from judge import __version__`` is allowed everywhere)"""


def layer_of(module: str) -> int | None:
    for index, layer in enumerate(LAYERS):
        if any(module == name or module.startswith(name + ".") for name in layer):
            return index
    return None


def _module_name(path: Path) -> str:
    """``judge/package/cases.py`` -> ``judge.package.cases``; a package's ``__init__`` is the package."""
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    base = REPO / Path(*name.split("."))
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def imported(source: str, package: str) -> set[str]:
    """Every judge module that ``source``, a module of ``package``, imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                name = f"{base}.{alias.name}"
                found.add(name if _is_module(name) else base)
    return {name for name in found if name == ROOT or name.startswith(ROOT + ".")}


MODULES = sorted(_module_name(path) for path in (REPO / "judge").rglob("*.py") if "skeleton" not in path.parts)


def _source(module: str) -> tuple[str, str]:
    """The module's text and the package its relative imports start from."""
    base = REPO / Path(*module.split("."))
    if (base / "__init__.py").exists():
        return (base / "__init__.py").read_text(encoding="utf-8"), module
    return base.with_suffix(".py").read_text(encoding="utf-8"), module.rsplit(".", 1)[0]


def test_every_module_has_a_layer():
    assert [m for m in MODULES if m != ROOT and layer_of(m) is None] == []


@pytest.mark.parametrize("module", [m for m in MODULES if m != ROOT])
def test_no_module_imports_a_higher_layer(module):
    own = layer_of(module)
    upward = sorted(name for name in imported(*_source(module)) if name != ROOT and (layer_of(name) or 0) > own)
    assert upward == [], f"{module} (layer {own}) imports {upward}"


def test_the_check_sees_an_upward_import():
    """Imports inside functions and relative ones are found: a planted upward import is caught."""
    source = "def f():\n    from ..judging import compare\n    from judge.author import generate\n"
    names = imported(source, "judge.package")
    assert names == {"judge.judging.compare", "judge.author.generate"}
    assert all(layer_of(n) > layer_of("judge.package") for n in names)
