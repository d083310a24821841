"""Run an author's own code (the reference, the declared submissions of hinted pitfalls) on a case's objects.

Author-side and trusted: it runs in this process. Every call gets freshly built objects, cast to the dtype
asked for (floating tensors and floating parameters and buffers only: integer labels stay integers), and runs
under the worker's fixed seed (:func:`judge.package.build.seeded`), so dropout draws the same masks here as
in the worker.
"""

from __future__ import annotations

import contextlib
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator

import torch
from torch import nn

from judge.errors import BadInput
from judge.package.build import build_objects, resolve_args, seeded, to_device
from judge.package.cases import Case
from judge.package.problem import Problem

Objects = dict[str, Any]
Transform = Callable[[Objects], Objects]


def load_module(path: Path, name: str) -> ModuleType:
    """The author's source file at ``path``, run as a module named ``name``."""
    if not path.exists():
        raise BadInput("no_reference", path=path)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_reference(problem: Problem) -> ModuleType:
    return load_module(problem.reference, f"reference_{problem.slug.replace('-', '_')}")


def mistake_paths(problem: Problem) -> dict[str, Path]:
    """The first declared submission of every hinted pitfall, by pitfall."""
    found: dict[str, Path] = {}
    for declared in problem.declared_submissions():
        if declared.pitfall in problem.hints and declared.pitfall not in found:
            found[declared.pitfall] = declared.path
    return found


def load_mistakes(paths: dict[str, Path]) -> dict[str, Any]:
    """A ``Solution`` instance per pitfall, from its declared submission (:func:`mistake_paths`)."""
    return {pitfall: load_module(path, f"mistake_{pitfall.replace('-', '_')}").Solution()
            for pitfall, path in paths.items()}


@contextlib.contextmanager
def unrounded(module: ModuleType) -> Iterator[None]:
    """Make the reference's own ``round(x, n)`` the identity, to see the statistics before rounding."""
    module.round = lambda value, ndigits=None: value
    try:
        yield
    finally:
        del module.round


@contextlib.contextmanager
def threads(count: int) -> Iterator[None]:
    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def cast(obj: Any, dtype: torch.dtype) -> Any:
    """``obj`` in ``dtype`` when it is floating: ``Module.to`` casts only floating parameters and buffers."""
    if isinstance(obj, torch.Tensor):
        return obj.to(dtype) if obj.is_floating_point() else obj
    return obj.to(dtype) if isinstance(obj, nn.Module) else obj


def objects_for(case: Case, dtype: torch.dtype = torch.float64, device: str = "cpu",
                transform: Transform = lambda o: o) -> Objects:
    """The case's objects, freshly built, transformed, cast and moved."""
    return {k: to_device(cast(v, dtype), device) for k, v in transform(build_objects(case.objects)).items()}


def call_one(solution: Any, case: Case, call: dict[str, Any], dtype: torch.dtype = torch.float64,
             device: str = "cpu", transform: Transform = lambda o: o) -> Any:
    """One call of ``case`` on freshly built objects."""
    args = resolve_args(call["args"], objects_for(case, dtype, device, transform))
    with seeded():
        return getattr(solution, call["method"])(*args)


def call_reference(solution: Any, case: Case, dtype: torch.dtype = torch.float64, device: str = "cpu",
                   transform: Transform = lambda o: o) -> list[Any]:
    """The reference's output for every call of ``case``, each on freshly built objects."""
    return [call_one(solution, case, call, dtype, device, transform) for call in case.calls]
