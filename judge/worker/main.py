"""The worker: the only process that runs submission code. Started by :mod:`judge.worker.launch`.

Usage: ``python -I -B -m judge.worker.main REQUEST_FD RESPONSE_FD SOLUTION_PATH [--seccomp] [--landlock=SECRETS]``
(``SECRETS``: the JSON of a :class:`judge.worker.landlock.Secrets`). A worker forked
from a warm process (:mod:`judge.worker.zygote`), which ran :func:`prepare` once for all its workers, runs the
same protocol through :func:`serve`.

The messages, in order, and their shapes are :mod:`judge.worker.protocol`'s; this module is what the worker does
between them.

Everything after the import runs alongside untrusted code, so the parent trusts nothing it says: it measures time
and memory itself and checks every reply (:mod:`judge.judging.result`).
"""

from __future__ import annotations

import importlib
import json
import linecache
import os
import sys
import traceback
import types
from dataclasses import dataclass
from typing import Any, BinaryIO

from judge.worker import landlock, privileges, protocol
from judge.worker.protocol import ENCODE_DEPTH, SOURCE_NAME, TYPE_CHARS

TRACE_FRAMES = 8
"""the submission's frames a traceback keeps, the innermost ones"""
WARM_OBJECTS = {
    "model": {"kind": "mlp", "seed": 0, "layers": [
        {"linear": [3, 2], "weight": {"init": "kaiming_normal"}, "bias": {"init": "normal"}}, {"act": "relu"},
        {"linear": [2, 2]}, {"act": "tanh"}, {"linear": [2, 1], "weight": {"init": "xavier_uniform"}}]},
    "x": {"kind": "tensor", "seed": 1, "shape": [4, 3], "init": "uniform"},
}
"""a fixed case, built by :func:`prepare`"""



def _exact_number(value: Any, np: Any) -> Any:
    """Python and NumPy scalars, and 0-d plain tensors, become plain numbers; anything else is returned as is."""
    import torch

    if np is not None and isinstance(value, (np.floating, np.integer, np.bool_)) and type(value).__module__ == "numpy":
        return value.item()
    if type(value) is torch.Tensor and value.dim() == 0:
        return torch.Tensor.item(value)
    return value


def encode(value: Any, np: Any, depth: int = 0) -> Any:
    """A JSON-safe image of a returned value. Exact types only: subclasses become :data:`protocol.UNSUPPORTED`."""
    value = _exact_number(value, np)
    if type(value) in (int, float, bool, str) or value is None:
        return value
    if depth >= ENCODE_DEPTH:
        return protocol.unsupported("unsupported_deep")
    if type(value) in (list, tuple):
        return [encode(v, np, depth + 1) for v in value]
    if type(value) is dict and all(type(k) is str for k in value):
        return {k: encode(v, np, depth + 1) for k, v in value.items()}
    return _describe(value)


def _describe(value: Any) -> dict[str, Any]:
    """What an unsupported value is, as a message key and its fields (the parent says it: no catalogue here)."""
    try:
        import torch

        if isinstance(value, torch.Tensor):
            return protocol.unsupported("unsupported_tensor", shape=[int(n) for n in value.shape])
    except Exception:  # noqa: BLE001 -- describing a hostile object must never fail
        pass
    return protocol.unsupported("object_of_type", name=type(value).__name__[:TYPE_CHARS])


def learner_trace(exc: BaseException) -> str:
    """The traceback in the learner's terms, as pytest's ``--tb=short`` and LeetCode show one: from the first frame
    of the submission's own file (:data:`SOURCE_NAME`) on, with the judge's frames before it and importlib's
    frozen frames dropped, and without the exception's own line (reports show its type and message above it). A
    syntax error has no such frame: it is the offending line and its caret alone."""
    if isinstance(exc, SyntaxError):
        return "".join(traceback.format_exception_only(exc)[:-1])  # its last line repeats the message
    frames = traceback.extract_tb(exc.__traceback__)
    first = next((i for i, f in enumerate(frames) if f.filename == SOURCE_NAME), len(frames))
    kept = traceback.StackSummary.from_list([f for f in frames[first:] if not f.filename.startswith("<frozen ")])
    return "".join(kept.format()[-TRACE_FRAMES:])


def error_of(exc: BaseException) -> dict[str, str]:
    return protocol.error_fields(type(exc).__name__, str(exc), learner_trace(exc))


class NotASolution(Exception):
    """The file ran but is not what the problem calls: no class ``Solution``, or methods missing. The worker words
    nothing (:mod:`judge.messages` is outside its footprint): it sends the message key and fields
    (:data:`judge.worker.protocol.SHAPE_ERRORS`), which the parent says in the report's language."""

    def __init__(self, key: str, **fields: Any):
        super().__init__(key)
        self.key, self.fields = key, fields


def import_failure(exc: BaseException) -> dict[str, Any]:
    """The ``import_error`` reply for what importing the submission raised."""
    if type(exc) is NotASolution:
        return protocol.not_a_solution(exc.key, **exc.fields)
    return protocol.import_error(error_of(exc))


def _force_full_fp32(torch: Any, device: str) -> None:
    """TF32 changes a fifth of 4-decimal values (``docs/numerics.md`` §1): keep every GEMM and convolution in full
    float32, whatever an earlier call set. Where torch has the per-backend ``fp32_precision`` switches (2.9 and
    later) they are the ones set: a submission could turn cuDNN's convolutions to TF32 through them past the older
    ``allow_tf32`` flags, and torch refuses to read flags set through both."""
    if device != "cuda":
        return
    backends = torch.backends
    if hasattr(getattr(backends.cudnn, "conv", None), "fp32_precision"):
        for switch in (backends.cuda.matmul, backends.cudnn.conv, backends.cudnn.rnn):
            switch.fp32_precision = "ieee"
    else:
        backends.cuda.matmul.allow_tf32 = False
        backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")


def _build(objects: dict[str, Any], device: str) -> dict[str, Any]:
    from judge.package.build import build_objects, to_device

    return {name: to_device(obj, device) for name, obj in build_objects(objects).items()}


def _import_solution(path: str, methods: list[str]) -> Any:
    with open(path, "rb") as file:
        return load_solution(file.read(), path, methods)


def load_solution(source: bytes, path: str, methods: list[str]) -> Any:
    """Run ``source`` as module ``solution``, compiled under :data:`SOURCE_NAME` (its lines registered with
    :mod:`linecache`, so tracebacks still quote them), and return an instance of its class ``Solution``."""
    lines = source.decode("utf-8", "replace").splitlines(keepends=True)
    linecache.cache[SOURCE_NAME] = (len(source), None, lines, SOURCE_NAME)
    module = types.ModuleType("solution")
    module.__file__ = path
    sys.modules["solution"] = module
    exec(compile(source, SOURCE_NAME, "exec", dont_inherit=True), module.__dict__)  # noqa: S102 -- in the worker
    cls = getattr(module, "Solution", None)
    if not isinstance(cls, type):
        raise NotASolution("import_no_solution_class")
    missing = [m for m in methods if not callable(getattr(cls, m, None))]
    if missing:
        found = [n for n in dir(cls) if type(n) is str and not n.startswith("_") and callable(getattr(cls, n, None))]
        raise NotASolution("import_missing_methods", missing=missing, found=protocol.names_within(found))
    return cls()


@dataclass(frozen=True)
class Lockdown:
    """The layers a worker puts on itself before the submission is imported."""

    seccomp: bool = False
    secrets: landlock.Secrets | None = None
    """None: no Landlock; else what its rules keep out"""
    readable: tuple[str, ...] | None = None
    """the read-only paths, when already computed (a zygote computes them once for all its workers)"""
    cover_proc: bool = False
    """a fresh worker covers ``/proc`` first thing (:func:`judge.worker.mounts.cover_proc`; one a warm process
    forks covers it as it confines itself)"""

    def argv(self) -> list[str]:
        """The command-line flags of a fresh worker that say this."""
        flags = ["--seccomp"] if self.seccomp else []
        flags += ["--cover-proc"] if self.cover_proc else []
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
        return cls("--seccomp" in flags, secrets, cover_proc="--cover-proc" in flags)


def lock_down(lockdown: Lockdown, scratch: str, device: str = "cpu") -> None:
    """Drop every capability, then restrict the files (Landlock), then the system calls (seccomp), in that
    order: the filter refuses nothing the first two need."""
    privileges.drop_all()
    if lockdown.secrets is not None:
        secrets = lockdown.secrets.resolved()
        read = list(lockdown.readable) if lockdown.readable is not None else landlock.readable(secrets)
        landlock.restrict(landlock.rules(read, scratch, device), secrets)
    landlock.forget_task_listing()  # it names the ids above the worker's PID namespace (judge.worker.pidns)
    if lockdown.seccomp:
        from judge.worker import seccomp

        seccomp.install()


def answer_checksums(request: dict[str, Any], out: BinaryIO) -> None:
    """A checker's one answer: the checksum of every case's objects, built on the CPU as ``judge gen`` built them."""
    from judge.package.build import checksum

    protocol.send(out, protocol.checksums([checksum(_build(objects, "cpu")) for objects in request["cases"]]))


class ReplacedJudgeCode(Exception):
    """The call returned with a judge-built object running other code than it was built with (its name is
    :data:`judge.worker.protocol.REPLACED`)."""


def run_call(solution: Any, request: dict[str, Any], device: str) -> Any:
    """Build the call's objects, forget the request, call the method, then check that every judge-built object
    still runs the code it was built with (a tripwire: :func:`judge.package.kinds.tampered`). Nothing of the
    request stays reachable from the frames below the submission's: it finds its arguments and nothing else."""
    from judge.package.build import resolve_args, seeded
    from judge.package.kinds import reveal, seals, tampered

    method = request["method"]
    objects = _build(reveal(request["objects"], request["hidden"]), device)
    args, sealed = resolve_args(request["args"], objects), seals(objects)
    request.clear()
    with seeded():  # dropout and any other randomness draw the same numbers in every run
        value = getattr(solution, method)(*args)
    if tampered(sealed):
        raise ReplacedJudgeCode()
    return value


def serve(requests: BinaryIO, out: BinaryIO, solution: str, lockdown: Lockdown) -> None:
    """The protocol above, from the first request until the parent closes the request pipe."""
    import torch

    torch.set_num_threads(1)
    incoming = protocol.Requests(requests)
    setup = incoming.next()
    if setup is None:
        return
    if setup["type"] == protocol.Request.VERIFY:
        privileges.set_dumpable(False)  # it holds every case: no process of its uid may read its memory
        answer_checksums(setup, out)
        return
    device, methods = setup["device"], setup["methods"]
    _force_full_fp32(torch, device)
    try:
        np = importlib.import_module("numpy")
    except ImportError:
        np = None
    lock_down(lockdown, os.path.dirname(solution), device)
    protocol.send(out, protocol.locked())
    try:
        solution_obj = _import_solution(solution, methods)
    except BaseException as exc:  # noqa: BLE001 -- SystemExit at import is the submission's failure too
        protocol.send(out, import_failure(exc))
        return
    protocol.send(out, protocol.ready())
    for request in incoming:
        reply_id = request["id"]
        _force_full_fp32(torch, device)
        try:
            reply = protocol.result(reply_id, encode(run_call(solution_obj, request, device), np))
        except BaseException as exc:  # noqa: BLE001 -- sys.exit() inside a method is a runtime error
            reply = protocol.error(reply_id, error_of(exc))
        del request
        protocol.send(out, reply)


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
    lockdown = Lockdown.from_argv(sys.argv[4:])
    if lockdown.cover_proc:  # first: with one thread, before torch
        from judge.worker import mounts

        mounts.cover_proc()
    prepare()
    serve(os.fdopen(request_fd, "rb", buffering=0), os.fdopen(response_fd, "wb"), solution, lockdown)


if __name__ == "__main__":
    main()
