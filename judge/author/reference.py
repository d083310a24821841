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


def _load(path: Path, name: str) -> ModuleType:
    if not path.exists():
        raise BadInput("no_reference", path=path)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_reference(problem: Problem) -> ModuleType:
    return _load(problem.reference, f"reference_{problem.slug.replace('-', '_')}")


def load_mistakes(problem: Problem) -> dict[str, Any]:
    """A ``Solution`` instance per hinted pitfall, from its first declared submission."""
    found: dict[str, Any] = {}
    for declared in problem.declared_submissions():
        if declared.pitfall in problem.hints and declared.pitfall not in found:
            module = _load(declared.path, f"mistake_{declared.pitfall.replace('-', '_')}")
            found[declared.pitfall] = module.Solution()
    return found


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
