"""The process that runs mutants of the reference fast: one warm process, a fork of it per mutant.

Mutants are the author's own code, one token away from the reference, not a learner's: they need no confinement,
only a clean start. This process imports torch once and builds a fixed case (:func:`judge.worker.main.prepare`,
as a worker does); for each ``mutant`` it forks a child that imports the mutant as module ``solution`` and answers
its ``call`` requests exactly as a worker answers them (:func:`judge.worker.main.run_call`: each call's objects
built afresh, the same seeding and encoding), until ``end``. Nothing one mutant changes in memory (a patched torch
function, a warnings filter, the recursion limit, an environment variable) reaches the next: it dies with its fork.

What the confined worker would stop (a file written or a folder made outside this process's scratch folder, a
scratch folder over half the worker's disk quota, a file read outside the interpreter's and the packages' own, a
process or a thread started, a socket) is not stopped here but noticed (:func:`_watch`): the call's reply says
``unusual`` and the parent hands the mutant to confined workers and replaces this process. Starting a process or a
thread also fails, so none outlives its mutant. The scratch folder (the working directory, ``HOME`` and ``TMPDIR``,
where torch keeps its caches) is emptied after each mutant, as each worker gets a fresh one.

Usage: ``python -I -B -m judge.author.mutation.trusted_worker REQUEST_FD RESPONSE_FD PARENT_PID SCRATCH``
(``SCRATCH``: a folder made for it, named ``judge-trusted-*``; it is emptied after every mutant)

Messages beyond :mod:`judge.worker.protocol`'s: the parent sends ``mutant`` (its source and the method names),
then ``call`` requests, then ``end``; the child answers ``ready`` or ``import_error``, each call's ``result`` or
``error`` with the call's CPU seconds, the peak resident and virtual bytes and the first unusual events, if any,
and ``done``; the runner answers ``exited`` when a fork dies before that. Before the first mutant of a plan the
parent may send a checker's ``verify`` (every case's objects), answered with their checksums as a checker answers
it.
"""

from __future__ import annotations

import _thread
import gc
import importlib
import os
import signal
import sys
import threading
import time
from typing import Any, BinaryIO

from judge.worker import libc, procfs, protocol
from judge.worker.confinement import DISK_QUOTA
from judge.worker.launch import FILE_SIZE_LIMIT
from judge.worker.main import answer_checksums, encode, error_of, import_failure, load_solution, prepare, run_call

MUTANT, END, DONE, EXITED = "mutant", "end", "done", "exited"
DEVICE = "cpu"
MUTANT_FILE = "mutant.py"
SCRATCH_PREFIX = "judge-trusted-"
LAZY = ("torch._dynamo",)
"""what torch imports on first use (an optimizer's first step: 0.9 s of CPU), imported once here rather than in
every mutant's fork"""
PROCESS_EVENTS = ("os.fork", "os.forkpty", "os.exec", "os.posix_spawn", "os.spawn", "os.system", "os.kill",
                  "os.killpg", "subprocess.Popen", "pty.spawn", "os.startfile")
"""audit events that start (or signal) a process: refused in a mutant's fork"""
FILE_EVENTS = ("os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.symlink", "os.link", "os.truncate", "os.chmod",
               "os.chown", "os.utime", "shutil.")
"""audit events that change the file system at their first argument: unusual outside the scratch folder"""
SCRATCH_SHARE = 0.5
"""the most of the worker's disk quota the scratch folder may hold after a call, and of its file-size limit any
one file there"""
READABLE = ("/sys/", "/dev/", "/usr/", "/lib", "/etc/ld.so")
"""where a call may read besides the interpreter's and the packages' own folders"""
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def mutant(source: str, methods: list[str]) -> dict[str, Any]:
    return {"type": MUTANT, "source": source, "methods": methods}


def _readable_roots() -> tuple[str, ...]:
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.dirname(protocol.__file__))}
    roots |= {p for p in sys.path if p and os.path.isdir(p)}
    return tuple(os.path.join(os.path.realpath(r), "") for r in roots) + READABLE


def _under(path: Any, roots: tuple[str, ...]) -> bool:
    """Whether ``path`` is one of ``roots`` (each ending in a separator) or lies inside one."""
    return isinstance(path, (str, bytes)) and os.path.join(os.path.realpath(os.fsdecode(path)), "").startswith(roots)


def _scratch_full(scratch: str) -> bool:
    """Whether the scratch folder holds more than a confined worker could write with room to spare."""
    sizes = [os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(scratch) for name in names]
    return sum(sizes) > SCRATCH_SHARE * DISK_QUOTA or max(sizes, default=0) > SCRATCH_SHARE * FILE_SIZE_LIMIT


def _watch(unusual: list[str], scratch: str) -> None:
    """From now on, in this fork: note in ``unusual`` every event the confined worker would have stopped, and
    refuse to start a process or a thread."""
    own = f"/proc/{os.getpid()}/"  # where /proc/self leads in this fork
    readable, writable = _readable_roots() + (scratch, own), (scratch,)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event.startswith(PROCESS_EVENTS):
            unusual.append(event)
            raise RuntimeError(f"a mutant's code starts no process in the fast path ({event})")
        if event.startswith("socket.") or event.startswith(FILE_EVENTS) and not (args and _under(args[0], writable)):
            unusual.append(event)
        elif event == "open" and args:
            path, mode, flags = (tuple(args) + (None, None))[:3]
            writes = (isinstance(mode, str) and any(c in mode for c in "wax+")
                      or isinstance(flags, int) and flags & WRITE_FLAGS)
            if not _under(path, writable if writes else readable) and not isinstance(path, int):
                unusual.append(f"open {path!r}")
        elif event in ("os.listdir", "os.scandir") and args and not _under(args[0], readable):
            unusual.append(event)

    def refuse(*_: Any, **__: Any) -> Any:
        unusual.append("thread")
        raise RuntimeError("a mutant's code starts no thread in the fast path")

    sys.addaudithook(hook)
    _thread.start_new_thread = threading._start_new_thread = refuse  # type: ignore[attr-defined]


def _serve(first: dict[str, Any], requests: protocol.Requests, out: BinaryIO, np: Any, stopped_reading: int) -> None:
    """A mutant's fork: import it, answer its calls until ``end``, then say so on ``stopped_reading`` (the runner
    reads the request pipe again) and answer ``done``."""
    unusual: list[str] = []
    me = os.getpid()
    procfs.reset_peak(me)  # without it the peak is the runner's: higher, so a call is only undecided more often
    virtual_at_start, scratch = procfs.status_bytes(me, "VmPeak"), os.path.join(os.path.realpath(os.getcwd()), "")
    _watch(unusual, scratch)
    try:
        solution = load_solution(first["source"].encode(), MUTANT_FILE, first["methods"])
        protocol.send(out, {**protocol.ready(), "unusual": unusual[:5]})
    except BaseException as exc:  # noqa: BLE001 -- the mutant's failure, reported to the parent
        solution = None
        protocol.send(out, import_failure(exc))
    for request in requests:
        if request.get("type") != protocol.Request.CALL or solution is None:
            break
        reply_id, started = request["id"], time.process_time()
        try:
            reply = protocol.result(reply_id, encode(run_call(solution, request, DEVICE), np))
        except BaseException as exc:  # noqa: BLE001 -- a mutant's exception is its answer
            reply = protocol.error(reply_id, error_of(exc))
        if _scratch_full(scratch):
            unusual.append("disk")
        memory = {"rss_bytes": procfs.status_bytes(me, "VmHWM"),
                  "virtual_bytes": procfs.status_bytes(me, "VmPeak") - virtual_at_start}
        protocol.send(out, {**reply, "cpu_s": time.process_time() - started, **memory, "unusual": unusual[:5]})
    os.write(stopped_reading, b".")
    protocol.send(out, {"type": DONE})


def _empty(folder: int) -> None:
    """Remove everything in the folder open at descriptor ``folder`` (the scratch folder, opened when this process
    started): each entry is reached through its folder's descriptor and a folder is opened with ``O_NOFOLLOW``, so a
    folder moved away or replaced by a symbolic link since, or any link inside it, is never followed."""
    for entry in os.scandir(folder):
        if entry.is_dir(follow_symlinks=False):
            inner = os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=folder)
            try:
                _empty(inner)
            finally:
                os.close(inner)
            os.rmdir(entry.name, dir_fd=folder)
        else:
            os.unlink(entry.name, dir_fd=folder)


def _fork(first: dict[str, Any], requests: protocol.Requests, out: BinaryIO, np: Any, scratch: int) -> None:
    """Run one mutant in a fork, and return once the fork no longer reads the request pipe (its teardown goes on
    while the next mutant starts; ``SIGCHLD`` is ignored, so no zombie is left)."""
    read_end, write_end = os.pipe()
    if os.fork() == 0:
        try:
            os.close(read_end)
            libc.die_with_parent()
            _serve(first, requests, out, np, write_end)
        finally:
            os._exit(0)
    os.close(write_end)
    if not os.read(read_end, 1):  # a byte when it stopped reading, nothing when it died
        protocol.send(out, {"type": EXITED})
    os.close(read_end)
    _empty(scratch)  # raises when a lingering fork changes it meanwhile: this process ends, and is replaced


def main() -> None:
    request_fd, response_fd, parent, scratch = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    libc.die_with_parent()
    if os.getppid() != parent or not os.path.basename(scratch).startswith(SCRATCH_PREFIX):
        return  # the parent died before the death signal was set, or the folder is not one to empty
    os.chdir(scratch)
    folder = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    prepare()
    for module in LAZY:
        importlib.import_module(module)
    try:
        np = importlib.import_module("numpy")
    except ImportError:
        np = None
    gc.freeze()  # the warm objects stay out of every fork's collections: fewer pages copied per mutant
    out = os.fdopen(response_fd, "wb")
    requests = protocol.Requests(os.fdopen(request_fd, "rb", buffering=0))
    for request in requests:
        if request.get("type") == protocol.Request.VERIFY:
            answer_checksums(request, out)
        elif request.get("type") == MUTANT:
            _fork(request, requests, out, np, folder)
        # anything else was sent to a mutant's fork that died before reading it


if __name__ == "__main__":
    main()
