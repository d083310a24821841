"""Judge one submission on a list of cases: drive workers, decide each call's verdict, replace broken workers.

The flow per submission: start a worker, check that it built every case bit-identically (before any submission
code ran), let it import the submission, make one untimed warm-up call, then call every case's methods in
order under that case's limits. After any abnormal end the worker is replaced and judging goes on; after
``RESOURCE_FAILURES_BEFORE_STOP`` cases end on a time or memory limit the rest are not run, so a submission
that loops forever costs seconds, not minutes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from judge import messages
from judge.judging.compare import Comparison, compare
from judge.judging.result import error_fields, parse
from judge.judging.verdict import Verdict, from_ending, from_error
from judge.machine import torch_version
from judge.package.cases import Case
from judge.package.tolerance import DEFAULT, Tolerance
from judge.worker import sandbox
from judge.worker.runner import TASK_LIMIT, Budget, Launch, Outcome, Worker

RESOURCE_FAILURES_BEFORE_STOP = 2
SETUP_WALL_S = 120.0
"""importing torch and building every case once, before any submission code runs"""
IMPORT_WALL_S = 30.0
"""importing the submission: an import that hangs is a compile error, not a time-limit verdict"""
CLOSE_TO_LIMIT = 1.1
"""a call may run to this multiple of its CPU limit; one that finishes above the limit is re-run once"""
WARM_UP_ALLOWANCE_S = 1.0
"""CPU and wall seconds the untimed warm-up call may take beyond the first call's own limits (lazy
initialisation). More only means the warm-up failed, which costs a fresh worker, never a verdict; without a
bound an endless loop burned 30 s of CPU here before its first case was even judged."""


@dataclass(frozen=True)
class CaseLimits:
    cpu_s: float
    memory_bytes: int
    wall_scale: float = 1.0
    """the wall-clock cap's factor: above 1 under a CPU quota below one CPU (:func:`judge.judging.limits.wall_scale`)"""

    @property
    def wall_s(self) -> float:
        return (2 * self.cpu_s + 1.0) * self.wall_scale

    def budget(self) -> Budget:
        return Budget(self.cpu_s * CLOSE_TO_LIMIT, self.wall_s, self.memory_bytes)


@dataclass
class CallResult:
    method: str
    verdict: Verdict
    cpu_s: float = 0.0
    wall_s: float = 0.0
    peak_rss_bytes: int = 0
    value: Any = None
    """the decoded value the submission returned (shown only for visible cases)"""
    comparison: Comparison | None = None
    error: dict[str, Any] | None = None
    """exception type, message and traceback tail from the worker, or the judge's own note"""
    output: str = ""


@dataclass
class CaseResult:
    case: Case
    limits: CaseLimits
    verdict: Verdict | None = None
    """None when the case was not run"""
    calls: list[CallResult] = field(default_factory=list)

    @property
    def cpu_s(self) -> float:
        return sum(c.cpu_s for c in self.calls)

    @property
    def peak_rss_bytes(self) -> int:
        return max((c.peak_rss_bytes for c in self.calls), default=0)


def _protocol_violation(detail: str) -> dict[str, Any]:
    return {"exc": "ProtocolViolation", "msg": detail}


class Session:
    """One submission, one worker at a time."""

    def __init__(self, submission: Path, cases: list[Case], methods: list[str], device: str, memory_bytes: int,
                 launch: Launch = sandbox.start, verified: bool = False):
        self.submission = submission
        self.launch = launch
        self.cases = cases
        self.device, self.methods = device, methods
        self.memory_bytes = memory_bytes
        self.worker: Worker | None = None
        self.failed_start: tuple[Verdict, dict[str, Any]] | None = None
        self.warmed = False
        self.verified = verified
        """whether a worker has shown that it builds every case bit-identically (checked once per session, or
        once for every worker ``launch`` starts from the same image)"""
        self.hidden_sent = False
        """whether a hidden case has been sent to a worker (from then on, no text of the submission's is reported)"""
        self._next_id = 0

    # -- worker life cycle -------------------------------------------------------------------------------------
    def _start(self) -> None:
        """Start a worker, or record in ``failed_start`` why no worker can judge this submission."""
        worker = Worker(self.submission, self.memory_bytes, self.launch, self.device)
        worker.start()
        setup_budget = Budget(cpu_s=4 * SETUP_WALL_S, wall_s=SETUP_WALL_S, memory_bytes=self.memory_bytes)
        to_verify = [] if self.verified else [c.spec() for c in self.cases]
        worker.send({"type": "setup", "device": self.device, "methods": self.methods, "cases": to_verify})
        built = worker.receive(setup_budget).message()
        if not isinstance(built, dict) or built.get("type") != "built":
            worker.close()
            self.failed_start = (Verdict.INTERNAL_ERROR, {"exc": "WorkerStart", "msg": "the worker did not start"})
            return
        drift = [c.id for c, s in zip(self.cases, built["checksums"]) if c.build_sha256 and c.build_sha256 != s]
        if drift:
            worker.close()
            self.failed_start = (Verdict.INTERNAL_ERROR, {"exc": "BuildDrift", "msg": messages.say(
                "build_drift", case=", ".join(drift), torch=torch_version())})
            return
        self.verified = True
        ready = worker.receive(Budget(cpu_s=2 * IMPORT_WALL_S, wall_s=IMPORT_WALL_S, memory_bytes=self.memory_bytes))
        message = ready.message()
        if isinstance(message, dict) and message.get("type") == "ready":
            self.worker = worker
            return
        worker.close()
        error = error_fields(message) if isinstance(message, dict) and message.get("type") == "import_error" else {
            "exc": "ImportFailed", "msg": _startup_failure(ready), "trace": ""}
        if self.hidden_sent:
            # A worker that saw a hidden case could have left its inputs in a file the next import reads and raises
            # with; only the judge's own words are reported from here on.
            error = {"exc": "ImportFailed", "msg": messages.say("import_failed_after_hidden"), "trace": ""}
        self.failed_start = (Verdict.COMPILE_ERROR, error)

    def _drop_worker(self) -> None:
        if self.worker:
            self.worker.close()
        self.worker = None

    def close(self) -> None:
        self._drop_worker()

    # -- calls -------------------------------------------------------------------------------------------------
    def _request(self, case_index: int, call_index: int, budget: Budget) -> Outcome | None:
        if self.worker is None and self.failed_start is None:
            self._start()
            if self.worker and not self.warmed:
                timed_out = self._warm_up(budget)
                if timed_out and (case_index, call_index) == (0, 0):
                    return timed_out
        if self.worker is None:
            return None
        self._next_id += 1
        return self.worker.request(self._call_message(case_index, call_index), budget)

    def _call_message(self, case_index: int, call_index: int) -> dict[str, Any]:
        self.hidden_sent = self.hidden_sent or self.cases[case_index].hidden
        return {"type": "call", "id": self._next_id, "case": self.cases[case_index].spec(), "call": call_index}

    def _warm_up(self, budget: Budget) -> Outcome | None:
        """One untimed call whose result is thrown away: lazy initialisation is not charged to the first case.

        Returns the outcome when the call ran out of time even with the allowance: the first call, which it is,
        cannot finish within its limit in a fresh worker either, so judging it again would only burn that time
        limit a second time (an endless loop cost three limits before its first verdict).
        """
        self.warmed = True
        self._next_id += 1
        allowance = Budget(budget.cpu_s + WARM_UP_ALLOWANCE_S, budget.wall_s + WARM_UP_ALLOWANCE_S, self.memory_bytes)
        outcome = self.worker.request(self._call_message(0, 0), allowance)
        if outcome.ended in ("cpu", "wall"):
            self._drop_worker()
            return outcome
        if outcome.ended or self.worker.leftover():
            self._drop_worker()  # the case itself will show what is wrong, in a fresh worker
            self._start()
        return None

    def call(self, case_index: int, call_index: int, limits: CaseLimits, expected: Any, item: str,
             tolerance: Tolerance = DEFAULT) -> CallResult:
        """Judge one call; a call that finishes just over its CPU limit is re-run once in a fresh worker."""
        result = self._call_once(case_index, call_index, limits, expected, item, tolerance)
        if result.verdict is not Verdict.TIME_LIMIT_EXCEEDED or result.error.get("exc") != "CloseToLimit":
            return result
        self._drop_worker()
        retry = self._call_once(case_index, call_index, limits, expected, item, tolerance)
        return retry if retry.cpu_s < result.cpu_s else result

    def _call_once(self, case_index: int, call_index: int, limits: CaseLimits, expected: Any, item: str,
                   tolerance: Tolerance) -> CallResult:
        method = self.cases[case_index].calls[call_index]["method"]
        outcome = self._request(case_index, call_index, limits.budget())
        if outcome is None:
            verdict, error = self.failed_start
            return CallResult(method, verdict, error=error)
        result = CallResult(method, Verdict.ACCEPTED, outcome.cpu_s, outcome.wall_s, outcome.peak_rss_bytes,
                            output=outcome.output.decode("utf-8", "replace"))
        if outcome.ended:
            result.verdict = from_ending(outcome)
            result.error = {"exc": outcome.ended, "msg": _ending_note(outcome, limits)}
            self._drop_worker()
            return result
        reply = parse(outcome.message(), self._next_id)
        if self.worker.leftover():
            self._drop_worker()
        if reply is None:
            result.verdict, result.error = Verdict.OUTPUT_FORMAT_ERROR, _protocol_violation(
                "the worker's reply was not a well-formed answer to this call")
            self._drop_worker()
        elif reply.kind == "error":
            result.error = reply.error
            result.verdict = from_error(result.error)
        else:
            _judge_value(result, reply.value, expected, item, tolerance)
        if result.verdict is Verdict.ACCEPTED and outcome.cpu_s > limits.cpu_s:
            result.verdict = Verdict.TIME_LIMIT_EXCEEDED
            result.error = {"exc": "CloseToLimit", "msg": f"used {outcome.cpu_s:.3f} s of CPU, limit {limits.cpu_s:.3f} s"}
        return result


def _judge_value(result: CallResult, value: Any, expected: Any, item: str, tolerance: Tolerance) -> None:
    result.value = value
    if expected is _NO_EXPECTATION:
        return
    result.comparison = compare(value, expected, item, tolerance)
    if result.comparison.format_error:
        result.verdict = Verdict.OUTPUT_FORMAT_ERROR
    elif not result.comparison.accepted:
        result.verdict = Verdict.WRONG_ANSWER


_NO_EXPECTATION = object()
"""passed as ``expected`` when only the value and the timing matter (calibration, generation)"""


def _ending_note(outcome: Outcome, limits: CaseLimits) -> str:
    return {
        "cpu": f"stopped after {outcome.cpu_s:.2f} s of CPU time (limit {limits.cpu_s:.2f} s)",
        "wall": f"stopped after {outcome.wall_s:.2f} s of wall time (limit {limits.wall_s:.2f} s)",
        "memory": messages.say("ended_memory_cgroup", limit=limits.memory_bytes >> 20) if outcome.oom_killed else
                  f"stopped at {outcome.peak_rss_bytes / 2**20:.0f} MiB (limit {limits.memory_bytes / 2**20:.0f} MiB)",
        "threads": messages.say("ended_threads", tasks=outcome.tasks, limit=TASK_LIMIT),
        "disk": messages.say("ended_disk", written=outcome.disk_bytes >> 20, quota=sandbox.DISK_QUOTA >> 20),
        "too_large": "the returned value was larger than the judge accepts",
        "exit": f"the process ended during the call (exit status {outcome.exit_status})",
    }[outcome.ended]


def _startup_failure(outcome: Outcome) -> str:
    if outcome.ended in ("cpu", "wall"):
        return "importing the submission did not finish in time"
    if outcome.ended == "memory":
        return "importing the submission used too much memory"
    if outcome.ended in ("threads", "disk"):
        return _ending_note(outcome, CaseLimits(0.0, 0))
    if outcome.ended == "exit":
        return f"the process ended while importing the submission (exit status {outcome.exit_status})"
    return "the worker's reply at start-up was not the expected one"


def judge_cases(session: Session, limits: list[CaseLimits], expected: list[list[Any]] | None,
                items: dict[str, str], tolerance: Tolerance = DEFAULT,
                on_case: Callable[[int, CaseResult], None] | None = None) -> list[CaseResult]:
    """Run every case in order; ``expected`` holds one value per call (None: record values and times only),
    compared within ``tolerance``. ``on_case`` is told each case's index and result as soon as its verdict is
    known (live progress)."""
    results, resource_failures = [], 0
    for index, case in enumerate(session.cases):
        case_result = CaseResult(case, limits[index])
        results.append(case_result)
        if resource_failures >= RESOURCE_FAILURES_BEFORE_STOP:
            continue
        for call_index, call in enumerate(case.calls):
            want = expected[index][call_index] if expected is not None else _NO_EXPECTATION
            call_result = session.call(index, call_index, limits[index], want, items.get(call["method"], "item"),
                                       tolerance)
            case_result.calls.append(call_result)
            if call_result.verdict is not Verdict.ACCEPTED:
                break
        case_result.verdict = next((c.verdict for c in case_result.calls if c.verdict is not Verdict.ACCEPTED),
                                   Verdict.ACCEPTED)
        if case_result.verdict in (Verdict.TIME_LIMIT_EXCEEDED, Verdict.MEMORY_LIMIT_EXCEEDED):
            resource_failures += 1
        if on_case is not None:
            on_case(index, case_result)
    return results
