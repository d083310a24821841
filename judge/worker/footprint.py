"""The judge's own files a worker may read: the modules that running a call needs, and nothing else of the judge.

A worker (fresh, forked from a warm process, or a checker) imports :mod:`judge.worker.main` or
:mod:`judge.worker.zygote` and what they import, builds a case's objects with :mod:`judge.package.build` and every
kind of :mod:`judge.package.kinds`, and locks itself down with :mod:`judge.worker.landlock` and
:mod:`judge.worker.seccomp`. Everything else of the judge (the comparison, the verdicts, the reports, the author
tools with their mutants, the messages, the front ends) stays out of its view under L2 (bubblewrap binds only
these files: :func:`judge.worker.launch.bwrap_args`) and out of its reach under L1 (Landlock lets it read only
these files, and list the package's directories: :func:`judge.worker.landlock.readable`). At L0 nothing about
files is guaranteed, and the whole package stays readable.

``tests/test_footprint.py`` runs the worker's whole import closure, building every case of every problem, and
checks that it stays inside :data:`MODULES`.
"""

from __future__ import annotations

import importlib.util
import os

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""the judge's own package (``judge/``)"""

MODULES = (
    "judge", "judge.compat", "judge.settings", "judge.places",
    "judge.worker", "judge.worker.main", "judge.worker.zygote", "judge.worker.launch", "judge.worker.landlock",
    "judge.worker.seccomp", "judge.worker.privileges", "judge.worker.protocol", "judge.worker.libc",
    "judge.worker.confinement", "judge.worker.scratch", "judge.worker.cgroup", "judge.worker.mounts",
    "judge.worker.footprint", "judge.worker.ipc", "judge.worker.pidns",
    "judge.package", "judge.package.build", "judge.package.bounds", "judge.package.kinds",
)
"""the modules (and packages) a worker imports; every module of :data:`WHOLE_PACKAGES` too"""
WHOLE_PACKAGES = ("judge.package.kinds",)
"""packages every module of which a worker may import (the kinds register themselves; some load when first built)"""


def _path(module: str) -> str:
    """The source file of ``module``, a module or package of the judge."""
    base = os.path.join(os.path.dirname(PACKAGE_DIR), *module.split("."))
    return os.path.join(base, "__init__.py") if os.path.isdir(base) else base + ".py"


def sources() -> list[str]:
    """Every source file a worker may read, sorted."""
    found = {_path(m) for m in MODULES}
    for package in WHOLE_PACKAGES:
        folder = os.path.dirname(_path(package))
        found |= {os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".py")}
    return sorted(p for p in found if os.path.isfile(p))


def files() -> list[str]:
    """:func:`sources` and the bytecode compiled from them where it exists (a worker writes none: ``-B``)."""
    compiled = [importlib.util.cache_from_source(p) for p in sources()]
    return sorted([*sources(), *(p for p in compiled if os.path.isfile(p))])


def directories() -> list[str]:
    """The package directories a worker lists to find those files: ``judge/`` and those below it that hold one."""
    return sorted({os.path.dirname(p) for p in sources()} | {PACKAGE_DIR})


def allows(module: str) -> bool:
    """Whether ``module`` is one a worker may import."""
    return module in MODULES or any(module.startswith(p + ".") for p in WHOLE_PACKAGES)
