"""Rerun what ``judge gen`` stores under another code path (:mod:`judge.author.codepaths`), in a worker of its own.

The kernels a library runs are chosen when it loads, from variables such as ``ATEN_CPU_CAPABILITY``, so each
path is a fresh interpreter: ``python -m judge.author.rerun REQUEST RESULT``. Its environment is a judge
worker's (``judge.worker.launch``: one thread for OpenMP, MKL and OpenBLAS, TF32 refused, the passed
variables) plus the path's variables. It runs the author's own trusted code, like ``judge gen`` itself, so it is
not confined; it reads the request (JSON: the problem's folder, the reference, the hinted mistakes' declared
submissions, and which cases: all when None) and writes, for every case:

* ``build_sha256``: the checksum of the objects as this path builds them;
* ``float32`` (and ``float64``, when asked): the reference's unrounded outputs on the objects in that dtype,
  1 thread (None where the reference raised or returned what JSON cannot hold). float64 moves by about 1e-16
  between kernels (a trillionth of the tolerance, measured), so :func:`everywhere` asks for it on one path
  only, the last (the most generic), to show the stored values do not depend on the kernels;
* ``mistakes`` (sample cases): each mistake's outputs, rounded as it rounds, on float64 objects (as stored) and
  on float32 objects (as the judge hands them over), one per call (None where it raised).

It also writes ``capability``: the level torch says it runs, so a path that did not take is seen.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator

import torch

from judge.author.codepaths import CAPABILITY, CodePath
from judge.author.reference import call_one, call_reference, load_module, unrounded
from judge.errors import InternalError
from judge.package.build import build_objects, checksum
from judge.package.cases import Case, tag_nonfinite, untag_nonfinite
from judge.package.problem import Problem, load_problem
from judge.worker import launch

DTYPES = {"float64": torch.float64, "float32": torch.float32}
STDERR_TAIL = 2000


@dataclass(frozen=True)
class Elsewhere:
    """One case's results under one code path."""

    path: str
    """the path's name, e.g. ``ATEN_CPU_CAPABILITY=default``"""
    build_sha256: str
    outputs: dict[str, list[Any] | None]
    """the reference's unrounded outputs, by dtype name"""
    mistakes: dict[str, dict[str, list[Any]]]
    """pitfall -> dtype name -> one output per call (None where the mistake raised)"""


def _jsonable(value: Any) -> Any:
    try:
        return json.loads(json.dumps(tag_nonfinite(value), allow_nan=False))
    except (TypeError, ValueError):
        return None


def _attempt(compute: Any) -> Any:
    try:
        return _jsonable(compute())
    except Exception:  # noqa: BLE001 -- the in-process run reports the reference's failure, with its call
        return None


def _case(module: ModuleType, mistakes: dict[str, Any], case: Case, dtypes: list[str]) -> dict[str, Any]:
    solution = module.Solution()
    with unrounded(module):
        outputs = {name: _attempt(lambda d=DTYPES[name]: call_reference(solution, case, d)) for name in dtypes}
    found = {} if case.hidden else {
        pitfall: {name: [_attempt(lambda c=call, d=dtype: call_one(mistake, case, c, d)) for call in case.calls]
                  for name, dtype in DTYPES.items()}
        for pitfall, mistake in mistakes.items()}
    return {"build_sha256": checksum(build_objects(case.objects)), "outputs": outputs, "mistakes": found}


def main() -> None:
    request_path, result_path = sys.argv[1:3]
    request = json.loads(Path(request_path).read_text(encoding="utf-8"))
    torch.set_num_threads(1)
    problem = load_problem(Path(request["problem"]))
    module = load_module(Path(request["reference"]), "reference")
    mistakes = {pitfall: load_module(Path(path), f"mistake_{i}").Solution()
                for i, (pitfall, path) in enumerate(request["mistakes"].items())}
    wanted = request.get("cases")
    cases = {case.id: _case(module, mistakes, case, request["dtypes"])
             for case in problem.cases if wanted is None or case.id in wanted}
    result = {"capability": torch.backends.cpu.get_cpu_capability(), "cases": cases}
    Path(result_path).write_text(json.dumps(result), encoding="utf-8")


class Rerun:
    """One code path's worker, started at once; :meth:`results` waits for it."""

    def __init__(self, problem: Problem, path: CodePath, mistakes: dict[str, Path], cases: list[str] | None = None,
                 float64: bool = True) -> None:
        self.path = path
        self.scratch = Path(tempfile.mkdtemp(prefix="judge-rerun-"))
        request = {"problem": str(problem.root.resolve()), "reference": str(problem.reference.resolve()),
                   "mistakes": {k: str(v.resolve()) for k, v in mistakes.items()}, "cases": cases,
                   "dtypes": ["float32", "float64"] if float64 else ["float32"]}
        (self.scratch / "request.json").write_text(json.dumps(request), encoding="utf-8")
        env = {**launch.environment(self.scratch), **path.env}
        self.stderr = (self.scratch / "stderr").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, *launch.PYTHON_FLAGS, "-m", "judge.author.rerun", "request.json", "result.json"],
            cwd=self.scratch, env=env, stdin=subprocess.DEVNULL, stdout=self.stderr, stderr=self.stderr)

    def results(self) -> tuple[str, dict[str, Elsewhere]]:
        """The level torch ran at, and every case's results, by case id."""
        code = self.process.wait()
        self.stderr.close()
        if code != 0:
            tail = (self.scratch / "stderr").read_text(errors="replace")[-STDERR_TAIL:]
            raise InternalError("rerun_failed", path=self.path.name, code=code, tail=tail)
        data = untag_nonfinite(json.loads((self.scratch / "result.json").read_text(encoding="utf-8")))
        return data["capability"], {case_id: Elsewhere(self.path.name, **entry) for case_id, entry in data["cases"].items()}

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.stderr.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


def _gather(running: list[Rerun]) -> dict[str, list[Elsewhere]]:
    by_case: dict[str, list[Elsewhere]] = {}
    for rerun in running:
        capability, cases = rerun.results()
        wanted = rerun.path.env.get(CAPABILITY)
        if wanted is not None and capability.lower() != wanted:
            raise InternalError("rerun_not_taken", path=rerun.path.name, got=capability)
        for case_id, results in cases.items():
            by_case.setdefault(case_id, []).append(results)
    return by_case


@contextlib.contextmanager
def everywhere(problem: Problem, paths: list[CodePath],
               mistakes: dict[str, Path]) -> Iterator[Callable[[], dict[str, list[Elsewhere]]]]:
    """Start one worker per path at once; the function yielded waits for them all and gives every case's
    results, by case id. Workers still running on the way out are killed."""
    running: list[Rerun] = []
    try:
        for path in paths:
            running.append(Rerun(problem, path, mistakes, float64=path is paths[-1]))
        yield lambda: _gather(running)
    finally:
        for rerun in running:
            rerun.close()


if __name__ == "__main__":
    main()
