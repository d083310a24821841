"""The worker: the only process that runs submission code. Started by :mod:`judge.worker.launch`.

Usage: ``python -I -B -m judge.worker.main REQUEST_FD RESPONSE_FD SOLUTION_PATH [--seccomp] [--landlock=SECRETS]``
(``SECRETS``: the JSON of a :class:`judge.worker.landlock.Secrets`). A worker forked
from a warm process (:mod:`judge.worker.zygote`), which ran :func:`prepare` once for all its workers, runs the
same protocol through :func:`serve`.

Protocol, one JSON object per line on dedicated pipes (never stdout, never pickle):

1. parent -> ``setup`` (device, method names, case *specifications*: never expected values)
2. worker builds every case once, *before* any submission code runs, then locks itself down (:func:`lock_down`:
   no capabilities, and when told to, Landlock and the seccomp filter; a layer that fails to load stops the
   worker here), answers ``built`` with the checksums, and forgets the cases, so code run at import time finds
   none of them in memory
3. worker imports the submission and answers ``ready`` or ``import_error``
4. parent -> ``call`` (one case's spec and a call index); worker builds that case's objects afresh, calls the
   method and answers ``result`` (the encoded value) or ``error`` (exception type, message, traceback tail)

Everything after step 3 runs alongside untrusted code, so the parent trusts nothing it says: it measures time
and memory itself and checks every reply (:mod:`judge.judging.result`).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import traceback
from dataclasses import dataclass
from typing import Any, BinaryIO

from judge.worker import landlock, privileges

ENCODE_DEPTH = 32
MESSAGE_CHARS = 2000
WARM_OBJECTS = {
    "model": {"kind": "mlp", "seed": 0, "layers": [
        {"linear": [3, 2], "weight": {"init": "kaiming_normal"}, "bias": {"init": "normal"}}, {"act": "relu"},
        {"linear": [2, 2]}, {"act": "tanh"}, {"linear": [2, 1], "weight": {"init": "xavier_uniform"}}]},
    "x": {"kind": "tensor", "seed": 1, "shape": [4, 3], "init": "uniform"},
}
"""a fixed case, built by :func:`prepare`"""


def _send(out: BinaryIO, message: dict[str, Any]) -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    out.write(json.dumps(message).encode() + b"\n")
    out.flush()


def _exact_number(value: Any, np: Any) -> Any:
    """Python and NumPy scalars, and 0-d plain tensors, become plain numbers; anything else is returned as is."""
    import torch

    if np is not None and isinstance(value, (np.floating, np.integer, np.bool_)) and type(value).__module__ == "numpy":
        return value.item()
    if type(value) is torch.Tensor and value.dim() == 0:
        return torch.Tensor.item(value)
    return value


def encode(value: Any, np: Any, depth: int = 0) -> Any:
    """A JSON-safe image of a returned value. Exact types only: subclasses become ``$unsupported``."""
    value = _exact_number(value, np)
    if type(value) in (int, float, bool, str) or value is None:
        return value
    if depth >= ENCODE_DEPTH:
        return {"$unsupported": "a value nested too deeply"}
    if type(value) in (list, tuple):
        return [encode(v, np, depth + 1) for v in value]
    if type(value) is dict and all(type(k) is str for k in value):
        return {k: encode(v, np, depth + 1) for k, v in value.items()}
    return {"$unsupported": _describe(value)}


def _describe(value: Any) -> str:
    try:
        import torch

        if isinstance(value, torch.Tensor):
            return f"a tensor of shape {list(value.shape)}"
    except Exception:  # noqa: BLE001 -- describing a hostile object must never fail
        pass
    return f"an object of type {type(value).__name__[:60]}"


def _error(exc: BaseException) -> dict[str, Any]:
    tail = traceback.format_exception(exc)[-6:]
    return {"exc": type(exc).__name__[:60], "msg": str(exc)[:MESSAGE_CHARS], "trace": "".join(tail)[-MESSAGE_CHARS:]}


def _force_full_fp32(torch: Any, device: str) -> None:
    """TF32 changes a fifth of 4-decimal values (numerics.md §1.2): keep every GEMM in full float32."""
    if device == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.set_float32_matmul_precision("highest")


def _build(spec: dict[str, Any], device: str) -> dict[str, Any]:
    from judge.package.build import build_objects, to_device

    return {name: to_device(obj, device) for name, obj in build_objects(spec["objects"]).items()}


def _import_solution(path: str, methods: list[str]) -> Any:
    spec = importlib.util.spec_from_file_location("solution", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["solution"] = module
    spec.loader.exec_module(module)
    cls = getattr(module, "Solution", None)
    if not isinstance(cls, type):
        raise ImportError("the file defines no class Solution")
    missing = [m for m in methods if not callable(getattr(cls, m, None))]
    if missing:
        raise ImportError(f"class Solution has no method {', '.join(missing)}")
    return cls()


@dataclass(frozen=True)
class Lockdown:
    """The layers a worker puts on itself before the submission is imported."""

    seccomp: bool = False
    secrets: landlock.Secrets | None = None
    """None: no Landlock; else what its rules keep out"""
    readable: tuple[str, ...] | None = None
    """the read-only paths, when already computed (a zygote computes them once for all its workers)"""
    memfd: bool = True
    """False: the filter refuses ``memfd_create`` too (no memory cgroup would count its pages)"""

    def argv(self) -> list[str]:
        """The command-line flags of a fresh worker that say this."""
        flags = ["--seccomp"] if self.seccomp else []
        flags += [] if self.memfd else ["--no-memfd"]
        if self.secrets is not None:
            flags.append("--landlock=" + json.dumps([self.secrets.kept, self.secrets.around]))
        return flags

    @classmethod
    def from_argv(cls, flags: list[str]) -> Lockdown:
        secrets = None
        for flag in flags:
            if flag.startswith("--landlock="):
                kept, around = json.loads(flag.split("=", 1)[1])
                secrets = landlock.Secrets(tuple(kept), tuple(around))
        return cls("--seccomp" in flags, secrets, memfd="--no-memfd" not in flags)


def lock_down(lockdown: Lockdown, scratch: str, device: str = "cpu") -> None:
    """Drop every capability, then restrict the files (Landlock), then the system calls (seccomp), in that
    order: the filter refuses nothing the first two need."""
    privileges.drop_all()
    if lockdown.secrets is not None:
        secrets = lockdown.secrets.resolved()
        read = list(lockdown.readable) if lockdown.readable is not None else landlock.readable(secrets)
        landlock.restrict(landlock.rules(read, scratch, device), secrets)
    if lockdown.seccomp:
        from judge.worker import seccomp

        seccomp.install(deny_memfd=not lockdown.memfd)


def serve(requests: BinaryIO, out: BinaryIO, solution: str, lockdown: Lockdown) -> None:
    """The protocol above, from ``setup`` until the parent closes the request pipe."""
    import torch

    from judge.package.build import checksum, resolve_args, seeded

    torch.set_num_threads(1)
    setup = json.loads(requests.readline())
    device, methods = setup["device"], setup["methods"]
    _force_full_fp32(torch, device)
    checksums = [checksum(_build(c, "cpu")) for c in setup["cases"]]
    del setup  # no case, hidden or not, stays in memory while the submission is imported
    try:
        np = importlib.import_module("numpy")
    except ImportError:
        np = None
    lock_down(lockdown, os.path.dirname(solution), device)
    _send(out, {"type": "built", "checksums": checksums})
    try:
        solution_obj = _import_solution(solution, methods)
    except BaseException as exc:  # noqa: BLE001 -- SystemExit at import is the submission's failure too
        _send(out, {"type": "import_error", **_error(exc)})
        return
    _send(out, {"type": "ready"})
    for line in requests:
        request = json.loads(line)
        reply_id = request["id"]
        call = request["case"]["calls"][request["call"]]
        _force_full_fp32(torch, device)
        try:
            args = resolve_args(call["args"], _build(request["case"], device))
            with seeded():  # dropout and any other randomness draw the same numbers in every run
                value = getattr(solution_obj, call["method"])(*args)
            reply = {"type": "result", "value": encode(value, np)}
        except BaseException as exc:  # noqa: BLE001 -- sys.exit() inside a method is a runtime error
            reply = {"type": "error", **_error(exc)}
        del request, call
        _send(out, {"id": reply_id, **reply})


def prepare() -> None:
    """Before any request: import torch with one thread and build a fixed case, which pulls in what torch
    imports lazily on its first operations (sympy among it, ~0.3 s). A worker that replaces a crashed one is
    not warmed up again, so without this its first timed call paid for those imports."""
    import torch

    from judge.package.build import build_objects, checksum

    torch.set_num_threads(1)
    checksum(build_objects(WARM_OBJECTS))


def main() -> None:
    request_fd, response_fd, solution = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    prepare()
    serve(os.fdopen(request_fd, "rb"), os.fdopen(response_fd, "wb"), solution, Lockdown.from_argv(sys.argv[4:]))


if __name__ == "__main__":
    main()
