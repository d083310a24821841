"""The fast path of mutant judging: the author's own code, judged in one warm process, every verdict decided by
the judge's own rules.

A :class:`TrustedRunner` sends a mutant and then its calls, case by case, to :mod:`.trusted_worker` and decides
each call as a submission's session does: the reply read by :func:`judge.judging.result.parse`, an exception's
verdict by :func:`judge.judging.verdict.from_error`, a value by the method's check
(:func:`judge.judging.session.checked`). The expected values stay here, as they do for a submission.

It decides only what it can decide as the confined judge would: a wrong answer, a malformed answer or an exception
at some call (killed), or every call accepted well within its limits (not killed). Anything near a resource
limit, or out of the ordinary (an import that fails, a call that runs past its wall-clock limit, a process that
dies, a tampered object, a memory error, cases this process does not build as ``judge gen`` built them) is
:data:`UNDECIDED`, and :mod:`.mutant_judge` judges that mutant in
confined workers as before. ``tests/test_mutants.py`` checks that both paths agree, mutant by mutant.
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
from judge.judging.session import CallResult, CaseResult, checked
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
        if plan.device != trusted_worker.DEVICE or plan.expected is None or self.unusable:
            return UNDECIDED
        try:
            self._start()
            if not self._builds(plan):
                return UNDECIDED
            self._send(trusted_worker.mutant(source, plan.methods))
            if not protocol.is_reply(self._receive(IMPORT_S), protocol.Reply.READY):
                self._end()
                return UNDECIDED
            for index in range(len(plan.cases)):
                failed = self._case(plan, index)
                if failed is not None:
                    self._end()
                    return failed
            self._end()
            return None
        except _Lost:
            self.unusable = self.fresh
            self.close()
            return UNDECIDED

    def _case(self, plan: Plan, index: int) -> CaseResult | str | None:
        """The case's result when a call failed, :data:`UNDECIDED`, or None when every call was accepted."""
        case, limits = plan.cases[index], plan.limits[index]
        result = CaseResult(case, limits)
        for call_index, call in enumerate(case.calls):
            self.next_id += 1
            self._send(protocol.call(self.next_id, case.call_request(call_index)))
            message = self._receive(limits.wall_s)
            over = (type(message.get("cpu_s")) is not float or message["cpu_s"] > LIMIT_SHARE * limits.cpu_s
                    or type(message.get("rss_bytes")) is not int
                    or message["rss_bytes"] > LIMIT_SHARE * limits.memory_bytes)
            reply = parse(message, self.next_id)
            if over or reply is None or reply.kind == "error" and reply.error["exc"] == protocol.REPLACED:
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
        self.scratch = Path(tempfile.mkdtemp(prefix="judge-trusted-"))
        command = [sys.executable, "-I", "-B", "-m", trusted_worker.__name__, str(request_r), str(response_w)]
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
        """The next message as a dict; a silence past ``timeout_s``, an end or a malformed line is :class:`_Lost`."""
        deadline = time.monotonic() + timeout_s + (START_S if self.fresh else 0)
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.response_r], [], [], left)[0]:
                raise _Lost()
            chunk = os.read(self.response_r, READ_BYTES)
            if not chunk:
                raise _Lost()
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        self.fresh = False
        message = protocol.decode(line)
        if not isinstance(message, dict):
            raise _Lost()
        return message

    def _end(self) -> None:
        """Tell the runner the mutant is done; a runner whose torch settings the mutant changed is replaced."""
        self._send({"type": trusted_worker.END})
        done = self._receive(IMPORT_S)
        if not protocol.is_reply(done, trusted_worker.DONE) or done.get("clean") is not True:
            self.close()

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
