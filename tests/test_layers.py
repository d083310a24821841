"""Data flows one way: no module of the judge imports one of a higher layer (lazy imports inside functions too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.cli import REPO

LAYERS: list[set[str]] = [
    {"judge.compat", "judge.errors", "judge.messages", "judge.messages_author", "judge.messages_learner",
     "judge.messages_machine", "judge.messages_cases", "judge.machine", "judge.places",
     "judge.settings", "judge.system_words", "judge.argwords"},
    {"judge.package"},
    {"judge.worker"},
    {"judge.judging"},
    {"judge.report"},
    {"judge.pipeline"},
    {"judge.author", "judge.practice", "judge.grading", "judge.platforms", "judge.serve", "judge.doctor", "judge.command",
     "judge.cli", "judge.__main__", "judge"},
]
"""low to high; a module may import its own layer and the layers below it"""
ROOT = "judge"
"""the package itself, in the top layer: it is what a notebook imports (``from judge import check``), and it
reaches the front ends, so no module below may import it (the version comes from judge.machine); it names only
itself, not every module under it"""
MAX_LINES = 400
VENDORED = REPO / "judge" / "serve" / "static" / "vendor"
"""third-party files, kept as their authors wrote them"""


def layer_of(module: str) -> int | None:
    for index, layer in enumerate(LAYERS):
        if any(module == name or name != ROOT and module.startswith(name + ".") for name in layer):
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
    assert [m for m in MODULES if layer_of(m) is None] == []


@pytest.mark.parametrize("module", MODULES)
def test_no_module_imports_a_higher_layer(module):
    own = layer_of(module)
    upward = sorted(name for name in imported(*_source(module)) if layer_of(name) > own)
    assert upward == [], f"{module} (layer {own}) imports {upward}"


def test_importing_the_root_package_is_an_upward_import():
    """``import judge`` (for ``__version__`` or ``__file__``) from any lower layer is caught, the root exempted
    from nothing; importing a module through it (``from judge import messages``) is importing that module."""
    assert imported("import judge\n", "judge.worker") == {"judge"}
    assert layer_of("judge") > layer_of("judge.worker")
    assert imported("from judge import messages\n", "judge.worker") == {"judge.messages"}


SOURCES = sorted(p for p in (REPO / "judge").rglob("*") if p.is_file() and p.suffix in (".py", ".j2", ".js", ".css")
                 and VENDORED not in p.parents and "__pycache__" not in p.parts)


@pytest.mark.parametrize("path", SOURCES + sorted((REPO / "benchmarks").glob("*.py")),
                         ids=lambda p: str(p.relative_to(REPO)))
def test_no_module_is_over_the_line_limit(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(REPO)} has {lines} lines; split it by concern"


def test_vendored_files_are_the_only_exemption():
    assert VENDORED.is_dir() and (VENDORED / "codemirror" / "LICENSE").is_file()
    assert not [p for p in SOURCES if "vendor" in p.parts]


def test_the_check_sees_an_upward_import():
    """Imports inside functions and relative ones are found: a planted upward import is caught."""
    source = "def f():\n    from ..judging import compare\n    from judge.author import generate\n"
    names = imported(source, "judge.package")
    assert names == {"judge.judging.compare", "judge.author.generate"}
    assert all(layer_of(n) > layer_of("judge.package") for n in names)
