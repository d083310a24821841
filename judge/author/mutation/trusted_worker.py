"""The process that runs mutants of the reference fast: many mutants, one after another, in one warm process.

Mutants are the author's own code, one token away from the reference, not a learner's: they need no confinement,
only a clean start. This process imports torch once and builds a fixed case (:func:`judge.worker.main.prepare`,
as a worker does), then imports each ``mutant`` afresh as module ``solution`` and answers its ``call`` requests
exactly as a worker answers them (:func:`judge.worker.main.run_call`: each call's objects built afresh, the same
seeding and encoding), until ``end``. It answers ``done`` with whether torch's global state is as it was before the
first mutant (:func:`state`); when it is not, it exits, and the parent starts a fresh one, so nothing one mutant
changes there reaches the next. The parent side is :mod:`.trusted_judge`.

Usage: ``python -I -B -m judge.author.mutation.trusted_worker REQUEST_FD RESPONSE_FD``

Messages beyond :mod:`judge.worker.protocol`'s: the parent sends ``mutant`` (its source and the method names),
then ``call`` requests, then ``end``; this process answers ``ready`` or ``import_error``, each call's ``result`` or
``error`` with the call's CPU seconds and the peak resident bytes since the mutant's import, and ``done``. Before
the first mutant of a plan the parent may send a checker's ``verify`` (every case's objects), answered with their
checksums as a checker answers it.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from typing import Any

from judge.worker import protocol
from judge.worker.main import answer_checksums, encode, error_of, load_solution, prepare, run_call

MUTANT, END, DONE = "mutant", "end", "done"
DEVICE = "cpu"
MUTANT_FILE = "mutant.py"
PAGE_COUNTERS = "/proc/self/clear_refs"
RESET_PEAK = b"5"
"""written to :data:`PAGE_COUNTERS`: the peak resident set (``VmHWM``) starts again from the current one"""


def mutant(source: str, methods: list[str]) -> dict[str, Any]:
    return {"type": MUTANT, "source": source, "methods": methods}


def state() -> tuple[Any, ...]:
    """torch's process-wide settings that a mutant's code could change and a later mutant's result depends on."""
    import torch
    from torch.nn.modules import module

    hooks = [(name, len(value) if isinstance(value, dict) else value)
             for name, value in vars(module).items() if name.startswith("_global_")]
    return (torch.is_grad_enabled(), torch.is_inference_mode_enabled(), torch.is_anomaly_enabled(),
            torch.get_default_dtype(), torch.get_num_threads(), torch.are_deterministic_algorithms_enabled(),
            *hooks)


def _reset_peak() -> None:
    try:
        with open(PAGE_COUNTERS, "wb") as file:
            file.write(RESET_PEAK)
    except OSError:
        pass  # without it the peak is the process's: higher, never lower, so a call is only undecided more often


def _peak_rss_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def main() -> None:
    request_fd, response_fd = int(sys.argv[1]), int(sys.argv[2])
    prepare()
    try:
        np = importlib.import_module("numpy")
    except ImportError:
        np = None
    before, solution = state(), None
    out = os.fdopen(response_fd, "wb")
    for request in protocol.Requests(os.fdopen(request_fd, "rb", buffering=0)):
        kind = request.get("type")
        if kind == protocol.Request.VERIFY:
            answer_checksums(request, out)
        elif kind == MUTANT:
            _reset_peak()
            try:
                solution = load_solution(request["source"].encode(), MUTANT_FILE, request["methods"])
                protocol.send(out, protocol.ready())
            except BaseException as exc:  # noqa: BLE001 -- the mutant's failure, reported to the parent
                solution = None
                protocol.send(out, protocol.import_error(error_of(exc)))
        elif kind == protocol.Request.CALL and solution is not None:
            reply_id, started = request["id"], time.process_time()
            try:
                reply = protocol.result(reply_id, encode(run_call(solution, request, DEVICE), np))
            except BaseException as exc:  # noqa: BLE001 -- a mutant's exception is its answer
                reply = protocol.error(reply_id, error_of(exc))
            protocol.send(out, {**reply, "cpu_s": time.process_time() - started, "rss_bytes": _peak_rss_bytes()})
        elif kind == END:
            solution, clean = None, state() == before
            protocol.send(out, {"type": DONE, "clean": clean})
            if not clean:
                return


if __name__ == "__main__":
    main()
