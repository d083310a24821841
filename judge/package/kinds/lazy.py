"""``torch`` and ``torch.nn`` for the kinds, imported on first use.

The judge's process validates and describes every case with the same kinds the worker builds them with, but it
never builds: only the worker and the author tools do. Importing torch costs about 1.8 s and 210 MB, to be paid
once per worker and never in the judge's process, so the kinds name torch through these stand-ins and the real
module is imported by the first attribute looked up on one (the first build). Anything evaluated when a kinds
module is imported (a base class, a default value) must therefore not touch them.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    """A module imported by the first attribute looked up on it."""

    def __init__(self, name: str):
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attribute)


torch: Any = LazyModule("torch")
nn: Any = LazyModule("torch.nn")
