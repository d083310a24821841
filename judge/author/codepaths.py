"""The other code paths of this machine's CPU kernels, which ``judge gen`` reruns a package under.

One machine holds several implementations of the same float arithmetic, each chosen by an environment variable
read when a library loads (so each path needs a process of its own, :mod:`judge.author.rerun`):

* ``ATEN_CPU_CAPABILITY``: torch's vectorised kernels (``default``: no SIMD, ``avx2``, ``avx512``). Only the
  levels this CPU runs are paths: asked for ``avx512`` on a CPU without AVX-512, torch 2.13 reports AVX512 and
  still runs its AVX2 kernels (measured: the same bits), so that path would prove nothing.
* ``MKL_CBWR``: MKL's conditional numerical reproducibility, i.e. which GEMM kernels run. ``COMPATIBLE`` is the
  generic branch every x86-64 CPU has; on an AVX-512 CPU, ``AVX2`` is what an AVX2 machine runs. (On the AMD
  EPYC it was measured on, the named branches AVX2, AVX, SSE4_2 gave the default's bits: only COMPATIBLE moved.)
* both at their most generic (``default`` and ``COMPATIBLE``): a machine unlike this one in both libraries.
* ``OPENBLAS_CORETYPE``: NumPy's OpenBLAS kernels, relevant only where the code that produces stored values
  imports numpy (``Prescott``: the SSE3 kernels every x86-64 CPU runs).

Thread counts and the batch order are rerun in process (:mod:`judge.author.generate`): ``torch.set_num_threads``
is the same knob as ``OMP_NUM_THREADS`` and ``MKL_NUM_THREADS``.
"""

from __future__ import annotations

import ast
import os
import platform
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import torch

CAPABILITY = "ATEN_CPU_CAPABILITY"
CBWR = "MKL_CBWR"
CORETYPE = "OPENBLAS_CORETYPE"
VARIABLES = (CAPABILITY, CBWR, CORETYPE)
"""what a code path may set (the judge's workers are passed each of them: ``judge.worker.launch.PASSED_ENV``)"""
X86 = ("x86_64", "amd64")
GENERIC_CORE = {"x86_64": "Prescott", "amd64": "Prescott", "aarch64": "ARMV8", "arm64": "ARMV8"}


@dataclass(frozen=True)
class CodePath:
    env: dict[str, str]
    """the variables this path sets, e.g. ``{"ATEN_CPU_CAPABILITY": "default"}``"""

    @property
    def name(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.env.items())


@dataclass(frozen=True)
class Skipped:
    name: str
    why: str


@dataclass(frozen=True)
class Machine:
    """What decides the paths: the CPU's vector units, torch's build, and the current kernel choice."""

    arch: str
    avx2: bool
    avx512: bool
    mkl: bool
    capability: str
    """the level torch runs now, lower case (``avx2``)"""

    @classmethod
    def here(cls) -> Machine:
        probe: Callable[[str], bool] = lambda name: bool(getattr(torch.cpu, name, lambda: False)())
        return cls(platform.machine().lower(), probe("_is_avx2_supported"), probe("_is_avx512_supported"),
                   torch.backends.mkl.is_available(), torch.backends.cpu.get_cpu_capability().lower())


@dataclass(frozen=True)
class Plan:
    paths: list[CodePath] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def _capabilities(machine: Machine, plan: Plan) -> None:
    levels = {"default": True}
    if machine.arch in X86:
        levels |= {"avx2": machine.avx2, "avx512": machine.avx512}
    for level, runs in levels.items():
        if level == machine.capability:
            continue
        if runs:
            plan.paths.append(CodePath({CAPABILITY: level}))
        else:
            plan.skipped.append(Skipped(f"{CAPABILITY}={level}", f"this CPU has no {level.upper()}: torch would "
                                        f"report {level.upper()} and still run its {machine.capability} kernels"))


def _mkl(machine: Machine, plan: Plan) -> None:
    if not machine.mkl:
        plan.skipped.append(Skipped(CBWR, "this torch is built without MKL"))
        return
    plan.paths.append(CodePath({CBWR: "COMPATIBLE"}))
    if machine.avx512:
        plan.paths.append(CodePath({CBWR: "AVX2"}))
    else:
        plan.skipped.append(Skipped(f"{CBWR}=AVX512", "this CPU has no AVX-512"))
    if machine.capability != "default":
        plan.paths.append(CodePath({CAPABILITY: "default", CBWR: "COMPATIBLE"}))


def _openblas(machine: Machine, plan: Plan, numpy: bool) -> None:
    core = GENERIC_CORE.get(machine.arch)
    if not numpy:
        plan.skipped.append(Skipped(CORETYPE, "neither the reference nor a hinted mistake imports numpy"))
    elif core is None:
        plan.skipped.append(Skipped(CORETYPE, f"no generic OpenBLAS core is known for {machine.arch}"))
    else:
        plan.paths.append(CodePath({CORETYPE: core}))


def code_paths(numpy: bool, machine: Machine | None = None) -> Plan:
    """The paths this machine can run besides its own, and those it cannot, each with the reason.

    A variable already set in this process's environment is the author's choice of baseline: paths that
    would set it to the same value are left out."""
    machine = machine or Machine.here()
    plan = Plan()
    _capabilities(machine, plan)
    _mkl(machine, plan)
    _openblas(machine, plan, numpy)
    same = [p for p in plan.paths if all(os.environ.get(k) == v for k, v in p.env.items())]
    return Plan([p for p in plan.paths if p not in same], plan.skipped)


def imports_numpy(paths: list[Path]) -> bool:
    """Whether any of these source files imports numpy (then OpenBLAS's kernels can reach a stored value)."""
    for path in paths:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n == "numpy" or n.startswith("numpy.") for n in names):
                return True
    return False
