"""The fast path of mutant judging: the author's own code, judged in one warm process, every verdict decided by
the judge's own rules.

A :class:`TrustedRunner` sends a mutant and then its calls, case by case, to :mod:`.trusted_worker` and decides
each call as a submission's session does: the reply read by :func:`judge.judging.result.parse`, an exception's
verdict by :func:`judge.judging.verdict.from_error`, a value by the method's check
(:func:`judge.judging.session.checked`). The expected values stay here, as they do for a submission.

It decides only what it can decide as the confined judge would: a wrong answer, a malformed answer or an exception
at some call (killed), or every call accepted well within its limits (not killed). Anything near a resource
limit (a reply over the reply cap included), or out of the ordinary (an import that fails, a call that runs past
its wall-clock limit, a process that dies, a tampered object, a memory error, anything a confined worker would have
stopped, cases this process does not build as ``judge gen`` built them) is :data:`UNDECIDED`, and
:mod:`.mutant_judge` judges that mutant in confined workers as before. As a session does, it makes one untimed
warm-up call before the first case. ``tests/test_trusted_judge.py`` checks that both paths agree, mutant by
mutant.
"""

from __future__ import annotations

import functools
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any

from judge.author.mutation import trusted_worker
from judge.judging.plan import Plan
from judge.judging.result import parse
from judge.judging.session import WARM_UP_ALLOWANCE_S, CallResult, CaseResult, checked
from judge.judging.verdict import Verdict, from_error
from judge.worker import protocol
from judge.worker.launch import environment

UNDECIDED = "undecided"
"""what :meth:`TrustedRunner.first_failure` returns when only confined workers can decide"""
START_S = 60.0
"""importing torch in a fresh runner"""
IMPORT_S = 10.0
"""importing one mutant"""
LIMIT_SHARE = 0.5
"""a call counts as within its limits only below this share of them: confined workers are slower than this
process, and a call near a limit is decided where the limit is enforced"""
READ_BYTES = 1 << 16


class _Lost(Exception):
    """The runner stopped answering as the protocol says (it is replaced)."""


class _Unusual(Exception):
    """The mutant did what a confined worker would have stopped (:func:`.trusted_worker._watch`): confined workers
    judge it, and the runner, whose files or folder it may have changed, is replaced."""


class TrustedRunner:
    """One warm :mod:`.trusted_worker` process, started on first use and replaced whenever it misbehaves."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.scratch: Path | None = None
        self.request_w = self.response_r = -1
        self.buffer = b""
        self.next_id = 0
        self.fresh = False
        """whether the runner has not answered yet (its first answer waits for torch's import)"""
        self.unusable = False
        """a runner that never answered: every mutant of this run goes to confined workers"""
        self.builds: weakref.WeakKeyDictionary[Plan, bool] = weakref.WeakKeyDictionary()
        """per plan, whether this process builds every case with a recorded checksum as ``judge gen`` built it"""

    def first_failure(self, plan: Plan, source: str) -> CaseResult | str | None:
        """The result of the first case ``source`` fails, None when it passes every case well within its limits,
        or :data:`UNDECIDED`."""
        if plan.device != trusted_worker.DEVICE or plan.expected is None or self.unusable or not plan.cases:
            return UNDECIDED
        try:
            self._start()
            if not self._builds(plan):
                return UNDECIDED
            self._send(trusted_worker.mutant(source, plan.methods))
            ready = self._receive(IMPORT_S)
            if ready.get("unusual"):
                raise _Unusual()
            decided = self._judged(plan) if protocol.is_reply(ready, protocol.Reply.READY) else UNDECIDED
            self._end()
            return decided
        except (_Lost, _Unusual) as stopped:
            self.unusable = isinstance(stopped, _Lost) and self.fresh
            self.close()
            return UNDECIDED

    def _judged(self, plan: Plan) -> CaseResult | str | None:
        """After one untimed warm-up call whose answer is thrown away, as a session makes one on the same
        ``Solution`` (a solution that keeps state between calls sees it), every case in order."""
        if self._call(plan, 0, 0, WARM_UP_ALLOWANCE_S) is None:
            return UNDECIDED
        for index in range(len(plan.cases)):
            failed = self._case(plan, index)
            if failed is not None:
                return failed
        return None

    def _call(self, plan: Plan, index: int, call_index: int, allowance_s: float = 0.0) -> dict[str, Any] | None:
        """One call's reply, or None when it is not one the fast path may decide on (too close to a limit,
        malformed, too long, or a tampered object). ``allowance_s``: the time a warm-up call may take beyond its
        call's limits, as a session allows it."""
        limits = plan.limits[index]
        self.next_id += 1
        self._send(protocol.call(self.next_id, plan.cases[index].call_request(call_index)))
        message = self._receive(limits.wall_s + allowance_s)
        if message.get("unusual") != []:
            raise _Unusual()
        within = (type(message.get("cpu_s")) is float and message["cpu_s"] <= LIMIT_SHARE * limits.cpu_s + allowance_s
                  and all(type(message.get(k)) is int and message[k] <= LIMIT_SHARE * limits.memory_bytes
                          for k in ("rss_bytes", "virtual_bytes")))
        replaced = message.get("type") == protocol.Reply.ERROR and message.get("exc") == protocol.REPLACED
        return message if within and not replaced else None

    def _case(self, plan: Plan, index: int) -> CaseResult | str | None:
        """The case's result when a call failed, :data:`UNDECIDED`, or None when every call was accepted."""
        case = plan.cases[index]
        result = CaseResult(case, plan.limits[index])
        for call_index, call in enumerate(case.calls):
            message = self._call(plan, index, call_index)
            reply = parse(message, self.next_id) if message is not None else None
            if reply is None:
                return UNDECIDED
            call_result = CallResult(call["method"], Verdict.ACCEPTED)
            if reply.kind == "error":
                call_result.error, call_result.verdict = reply.error, from_error(reply.error)
            else:
                expected = plan.expected[index][call_index]  # type: ignore[index] -- checked in first_failure
                checked(call_result, reply.value, functools.partial(plan.checks[call["method"]], expected=expected))
            if call_result.verdict is Verdict.MEMORY_LIMIT_EXCEEDED:
                return UNDECIDED
            if call_result.verdict is not Verdict.ACCEPTED:
                result.calls.append(call_result)
                result.verdict = call_result.verdict
                return result
        return None

    def _builds(self, plan: Plan) -> bool:
        """Whether this process builds every case of ``plan`` bit-identically, as a session's checker shows before a
        submission runs (asked once per plan; a plan whose builds a calibration here checked is not asked)."""
        if plan.builds_checked or not any(c.build_sha256 for c in plan.cases):
            return True
        if plan not in self.builds:
            self._send(protocol.verify([c.objects for c in plan.cases]))
            sums = self._receive(IMPORT_S * len(plan.cases)).get("checksums")
            self.builds[plan] = isinstance(sums, list) and len(sums) == len(plan.cases) and all(
                c.build_sha256 in (None, s) for c, s in zip(plan.cases, sums))
        return self.builds[plan]

    # -- the runner process --------------------------------------------------------------------------------------
    def _start(self) -> None:
        if self.process is not None:
            return
        request_r, self.request_w = os.pipe()
        self.response_r, response_w = os.pipe()
        self.scratch = Path(tempfile.mkdtemp(prefix=trusted_worker.SCRATCH_PREFIX))
        command = [sys.executable, "-I", "-B", "-m", trusted_worker.__name__, str(request_r), str(response_w),
                   str(os.getpid()), str(self.scratch)]
        self.process = subprocess.Popen(command, pass_fds=(request_r, response_w), cwd=self.scratch,
                                        env=environment(self.scratch), stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)
        os.close(request_r)
        os.close(response_w)
        self.buffer, self.fresh = b"", True

    def _send(self, message: dict[str, Any]) -> None:
        data = protocol.encode_request(message)
        try:
            while data:
                data = data[os.write(self.request_w, data):]
        except OSError as exc:
            raise _Lost() from exc

    def _receive(self, timeout_s: float) -> dict[str, Any]:
        """The next message as a dict; a silence past ``timeout_s``, an end or a malformed line is :class:`_Lost`, a
        line longer than a worker's reader takes (:data:`judge.worker.protocol.RESPONSE_CAP`) :class:`_Unusual`."""
        deadline = time.monotonic() + timeout_s + (START_S if self.fresh else 0)
        while b"\n" not in self.buffer:
            if len(self.buffer) > protocol.RESPONSE_CAP:
                raise _Unusual()
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.response_r], [], [], left)[0]:
                raise _Lost()
            chunk = os.read(self.response_r, READ_BYTES)
            if not chunk:
                raise _Lost()
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        self.fresh = False
        if len(line) > protocol.RESPONSE_CAP:
            raise _Unusual()
        message = protocol.decode(line)
        if not isinstance(message, dict) or message.get("type") == trusted_worker.EXITED:
            raise _Lost()
        return message

    def _end(self) -> None:
        """Tell the mutant's fork to end, and wait until it has."""
        self._send({"type": trusted_worker.END})
        while not protocol.is_reply(self._receive(IMPORT_S), trusted_worker.DONE):
            pass

    def kill(self) -> None:
        """Kill the runner and everything it forked (from any thread: one waiting on it sees the pipe end)."""
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def close(self) -> None:
        """Stop the runner and everything it forked; the next mutant starts a fresh one."""
        if self.process is not None:
            self.kill()
            self.process.wait()
            os.close(self.request_w)
            os.close(self.response_r)
            self.process = None
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None
