"""Judge one submission on a list of cases: drive workers, decide each call's verdict, replace broken workers.

The flow per submission: check that a worker builds every case bit-identically (once per judge, in a checker
that never imports a submission: :mod:`judge.worker.protocol`), start a worker, let it import the submission,
make one untimed warm-up call, then call every case's methods in order under that case's limits; each call's
request holds that call alone (:meth:`judge.package.cases.Case.call_request`). After any abnormal end the
worker is replaced and judging goes on. Which cases are not run, so that a submission that loops forever costs
seconds, not minutes, and a slow method costs only its own cases, is :mod:`judge.judging.allowance`'s policy.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable

from judge import messages
from judge.judging.allowance import Allowance, NotRun, total_budget_s
from judge.judging.compare import Comparison
from judge.judging.limits import CaseLimits
from judge.judging.result import clean_text, error_fields, not_a_solution, parse
from judge.judging.verdict import ENDINGS, OOM_KILLED, Verdict, from_ending, from_error
from judge.machine import torch_version
from judge.package.cases import Case
from judge.worker.confinement import DISK_QUOTA
from judge.worker import protocol
from judge.worker.launch import Launch
from judge.worker.protocol import Reply
from judge.worker.runner import TASK_LIMIT, Budget, Ending, Outcome, Worker

SETUP_WALL_S = 120.0
"""importing torch and building every case once, before any submission code runs"""
IMPORT_WALL_S = 30.0
"""importing the submission: an import that hangs is a compile error, not a time-limit verdict"""
WARM_UP_ALLOWANCE_S = 1.0
"""CPU and wall seconds the untimed warm-up call may take beyond the first call's own limits (lazy
initialisation). More only means the warm-up failed, which costs a fresh worker, never a verdict; without a
bound an endless loop burned 30 s of CPU here before its first case was even judged."""

Check = Callable[[Any], Comparison]
IMPORTING = "Importing your file"
"""the step a note about the submission's import names, in the learner's words (never a judge's class name)"""
"""compares one returned value with its expected one: ``partial(compare, expected=…, item=…, tolerance=…)``"""


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
    ending: Ending | None = None
    """how the call ended, when not with an answer within its limits"""
    measured: bool = True
    """whether it ran in a worker (False: no worker could load the submission, so nothing was measured)"""


@dataclass
class CaseResult:
    case: Case
    limits: CaseLimits
    verdict: Verdict | None = None
    """None when the case was not run"""
    calls: list[CallResult] = field(default_factory=list)
    not_run: NotRun | None = None
    """why the case was not run (:mod:`judge.judging.allowance`), else None"""

    @property
    def measured(self) -> bool:
        """Whether any of its calls ran in a worker: else it has no time or memory to show."""
        return any(c.measured for c in self.calls)

    @property
    def cpu_s(self) -> float:
        return sum(c.cpu_s for c in self.calls)

    @property
    def peak_rss_bytes(self) -> int:
        return max((c.peak_rss_bytes for c in self.calls), default=0)


class JudgesNote(dict):  # type: ignore[type-arg]
    """An error entry in the judge's own words, which keeps its message key and fields, so that a report in
    another language says it in that one (:func:`judge.report.build.build_report`). A worker's reply is decoded
    into plain dicts, so a submission can never pass one off as the judge's: it becomes one only where it names a
    message of :data:`judge.worker.protocol.SHAPE_ERRORS` with the fields a worker sends, checked
    (:func:`_import_failure`)."""

    def __init__(self, name: str, key: str, fields: dict[str, Any]):
        super().__init__(exc=name, msg=messages.say(key, **fields))
        self.key, self.fields = key, fields


UNJUDGEABLE = "NotJudgeable"
"""the step a file no worker can load (unreadable, not Python) is stopped at (:meth:`judge.pipeline.Judge.unjudgeable`)"""


def _judges_note(name: str, key: str, **fields: Any) -> dict[str, Any]:
    """An error entry in the judge's own words (``exc`` names the judge's step in a learner's words, never a
    submission's class nor one of the judge's)."""
    return JudgesNote(name, key, fields)


def ending_fields(outcome: Outcome, limits: CaseLimits) -> dict[str, Any]:
    """Every field an ending's message may name (:data:`judge.judging.verdict.ENDINGS`)."""
    return {"cpu_s": outcome.cpu_s, "cpu_limit_s": limits.cpu_s, "wall_s": outcome.wall_s - outcome.waited_s, "wall_limit_s": limits.wall_s,
            "peak_mib": outcome.peak_rss_bytes / 2**20, "memory_limit_mib": limits.memory_bytes / 2**20,
            "tasks": outcome.tasks, "task_limit": TASK_LIMIT, "written_mib": outcome.disk_bytes >> 20,
            "quota_mib": DISK_QUOTA >> 20, "status": outcome.exit_status, "import_limit_s": IMPORT_WALL_S}


def _ending_note(ending: Ending, outcome: Outcome, limits: CaseLimits) -> dict[str, Any]:
    key = OOM_KILLED if ending is Ending.MEMORY and outcome.oom_killed else ENDINGS[ending].message
    return _judges_note(ending.value, key, **ending_fields(outcome, limits))


class Session:
    """One submission, one worker at a time: it drives workers, and hands each reply to the call's check."""

    def __init__(self, solution: bytes, cases: list[Case], methods: list[str], device: str, memory_bytes: int,
                 launch: Launch, verified: bool = False):
        self.solution = solution
        """the submission's bytes, read once by the judge and hashed in its report: what every worker runs"""
        self.launch = launch
        self.cases = cases
        self.device, self.methods = device, methods
        self.memory_bytes = memory_bytes
        self.worker: Worker | None = None
        self.failed_start: tuple[Verdict, dict[str, Any]] | None = None
        self.warmed = False
        self.verified = verified
        """whether a checker has shown that workers build every case bit-identically (checked once per session, or
        once for every worker ``launch`` starts from the same image)"""
        self.hidden_sent = False
        """whether a hidden case has been sent to a worker (from then on, no text of the submission's is reported)"""
        self.spent_s = 0.0
        """the submission's own time so far (:mod:`judge.judging.allowance`): its calls, and its imports into
        replacement workers"""
        self.imported = False
        """whether a worker has imported the submission once (the first import is not charged to it)"""
        self._next_id = 0

    # -- worker life cycle -------------------------------------------------------------------------------------
    def _start(self) -> None:
        """Start a worker, or record in ``failed_start`` why no worker can judge this submission."""
        checker = None if self.verified else self._start_checker()
        worker = Worker(self.solution, self.memory_bytes, self.launch)
        worker.start()  # imports torch while the checker builds; it runs nothing of the submission's until setup
        if checker is not None and not self._checked(checker):
            worker.close()
            return
        setup_budget = Budget(cpu_s=4 * SETUP_WALL_S, wall_s=SETUP_WALL_S, memory_bytes=self.memory_bytes)
        worker.send(protocol.setup(self.device, self.methods))
        setup = worker.receive(setup_budget)
        if not protocol.is_reply(setup.message(), Reply.LOCKED):
            worker.close()
            self.failed_start = (Verdict.INTERNAL_ERROR, _judges_note("Starting the judge", "worker_did_not_start"))
            return
        ready = worker.receive(Budget(cpu_s=2 * IMPORT_WALL_S, wall_s=IMPORT_WALL_S, memory_bytes=self.memory_bytes))
        message = ready.message()
        if self.imported:  # a receive's CPU time counts from the worker's start: the import's is the difference
            self.spent_s += max(ready.cpu_s - setup.cpu_s, ready.wall_s - ready.waited_s)
        self.imported = True
        if protocol.is_reply(message, Reply.READY):
            self.worker = worker
            return
        worker.close()
        error = _import_failure(message, self.methods) if protocol.is_reply(message, Reply.IMPORT_ERROR) else \
            _traceless(_startup_failure(ready, self.memory_bytes))
        if self.hidden_sent:
            # A worker that saw a hidden case could have left its inputs in a file the next import reads and raises
            # with; only the judge's own words are reported from here on.
            error = _traceless(_judges_note(IMPORTING, "import_failed_after_hidden"))
        self.failed_start = (Verdict.COMPILE_ERROR, error)

    def _start_checker(self) -> Worker:
        """A worker told to build every case and answer their checksums; it never imports the submission."""
        checker = Worker(self.solution, self.memory_bytes, self.launch)
        checker.start()
        checker.send(protocol.verify([c.objects for c in self.cases]))
        return checker

    def _checked(self, checker: Worker) -> bool:
        """Whether the checker built every case as ``judge gen`` did; it is closed (and its memory, which held
        every case, gone) before any worker of this session is told to import the submission."""
        budget = Budget(cpu_s=4 * SETUP_WALL_S, wall_s=SETUP_WALL_S, memory_bytes=self.memory_bytes)
        answer = checker.receive(budget).message()
        checker.close()
        sums = answer.get("checksums") if protocol.is_reply(answer, Reply.CHECKSUMS) else None
        if not isinstance(sums, list) or len(sums) != len(self.cases):
            self.failed_start = (Verdict.INTERNAL_ERROR, _judges_note("Starting the judge", "worker_did_not_start"))
            return False
        drift = [c.id for c, s in zip(self.cases, sums) if c.build_sha256 and c.build_sha256 != s]
        if drift:
            self.failed_start = (Verdict.INTERNAL_ERROR, _judges_note("Building the case", "build_drift", case=", ".join(drift),
                                                                  torch=torch_version()))
            return False
        self.verified = True
        return True

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
        return protocol.call(self._next_id, self.cases[case_index].call_request(call_index))

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
        if outcome.ended in (Ending.CPU, Ending.WALL):
            self._drop_worker()
            return outcome
        if outcome.ended or self.worker.leftover():
            self._drop_worker()  # the case itself will show what is wrong, in a fresh worker
            self._start()
        return None

    def call(self, case_index: int, call_index: int, limits: CaseLimits, check: Check | None) -> CallResult:
        """Run one call and hand its value to ``check`` (None: only the value and the times matter, as when the
        reference is timed); a call that finishes just over its CPU limit is re-run once in a fresh worker."""
        result = self._call_once(case_index, call_index, limits, check)
        if result.ending is not Ending.LATE:
            return result
        self._drop_worker()
        retry = self._call_once(case_index, call_index, limits, check)
        return retry if retry.cpu_s < result.cpu_s else result

    def _call_once(self, case_index: int, call_index: int, limits: CaseLimits, check: Check | None) -> CallResult:
        method = self.cases[case_index].calls[call_index]["method"]
        outcome = self._request(case_index, call_index, limits.budget())
        if outcome is None:
            verdict, error = self.failed_start
            return CallResult(method, verdict, error=error, measured=False)
        self.spent_s += min(outcome.own_s, limits.cpu_s)
        result = CallResult(method, Verdict.ACCEPTED, outcome.cpu_s, outcome.wall_s, outcome.peak_rss_bytes,
                            output=outcome.output.decode("utf-8", "replace"))
        if outcome.ended:
            self._ended(result, outcome.ended, outcome, limits)
            self._drop_worker()
            return result
        reply = parse(outcome.message(), self._next_id)
        if self.worker.leftover():
            self._drop_worker()
        if reply is None:
            result.verdict = Verdict.OUTPUT_FORMAT_ERROR
            result.error = _judges_note("Reading your reply", "reply_malformed")
            self._drop_worker()
        elif reply.kind == "error":
            replaced = reply.error["exc"] == protocol.REPLACED
            result.error = _judges_note(protocol.REPLACED, "replaced_judge_code") if replaced else reply.error
            result.verdict = from_error(result.error)
        else:
            checked(result, reply.value, check)
        if result.verdict is Verdict.ACCEPTED and outcome.cpu_s > limits.cpu_s:
            self._ended(result, Ending.LATE, outcome, limits)
        return result

    @staticmethod
    def _ended(result: CallResult, ending: Ending, outcome: Outcome, limits: CaseLimits) -> None:
        result.verdict, result.ending, result.error = from_ending(ending), ending, _ending_note(ending, outcome, limits)


def checked(result: CallResult, value: Any, check: Check | None) -> None:
    result.value = value
    if check is None:
        return
    result.comparison = check(value)
    if result.comparison.format_error:
        result.verdict = Verdict.OUTPUT_FORMAT_ERROR
    elif not result.comparison.accepted:
        result.verdict = Verdict.WRONG_ANSWER


def _traceless(note: dict[str, Any]) -> dict[str, Any]:
    """A note of the judge's as a startup error, whose traceback field is there and empty (still a
    :class:`JudgesNote`, said in the report's language: ``{**note, "trace": ""}`` would be a plain dict)."""
    note["trace"] = ""
    return note


def _import_failure(message: dict[str, Any], methods: list[str]) -> dict[str, Any]:
    """What a worker's ``import_error`` reports: the exception's fields; or, where it says the file is not a solution
    by a key and fields a worker sends (:func:`judge.judging.result.not_a_solution`), that in the judge's words; a
    key with any other fields is shown as its text (the submission ran before, and may have forged it)."""
    if "key" not in message:
        return error_fields(message)
    shape = not_a_solution(message, methods)
    if shape is None:
        forged = str({k: v for k, v in message.items() if k != "type"})
        return {"exc": protocol.SHAPE_EXC, "msg": clean_text(forged[:protocol.MESSAGE_CHARS]), "trace": ""}
    key, fields = shape
    return _traceless(_judges_note(protocol.SHAPE_EXC, key, **{
        name: ", ".join(names) or messages.Said("report_none") for name, names in fields.items()}))


def _startup_failure(outcome: Outcome, memory_bytes: int) -> dict[str, Any]:
    """The judge's note when the worker ended, or answered wrongly, while it imported the submission: it names
    the import's own limits (``IMPORT_WALL_S``, the worker's memory)."""
    if outcome.ended is None:
        return _judges_note(IMPORTING, "import_bad_reply")
    return _judges_note(IMPORTING, ENDINGS[outcome.ended].at_import,
                        **ending_fields(outcome, CaseLimits(2 * IMPORT_WALL_S, memory_bytes)))


def judge_cases(session: Session, limits: list[CaseLimits], expected: list[list[Any]] | None = None,
                checks: dict[str, Callable[..., Comparison]] | None = None,
                on_case: Callable[[int, CaseResult], None] | None = None) -> list[CaseResult]:
    """Run every case in order, but those :class:`~judge.judging.allowance.Allowance` says not to run.
    ``expected`` holds one value per call, handed with each returned value to its method's check (``checks``,
    prepared with the plan); without them only values and times are recorded. ``on_case`` is told each case's
    index and result as soon as its verdict is known (live progress); a case not run has none."""
    results, allowance = [], Allowance(total_budget_s(session.cases, limits))
    for index, case in enumerate(session.cases):
        case_result = CaseResult(case, limits[index])
        results.append(case_result)
        case_result.not_run = allowance.not_run(case, session.spent_s)
        if case_result.not_run is not None:
            continue
        _run_case(session, index, case_result, expected, checks, allowance)
        if on_case is not None:
            on_case(index, case_result)
    return results


def _run_case(session: Session, index: int, case_result: CaseResult, expected: list[list[Any]] | None,
              checks: dict[str, Callable[..., Comparison]] | None, allowance: Allowance) -> None:
    """Call the case's methods in order until one fails; its verdict is that call's."""
    for call_index, call in enumerate(case_result.case.calls):
        check = None
        if expected is not None and checks is not None:
            check = functools.partial(checks[call["method"]], expected=expected[index][call_index])
        call_result = session.call(index, call_index, case_result.limits, check)
        case_result.calls.append(call_result)
        allowance.record(call_result.method, call_result.verdict)
        if call_result.verdict is not Verdict.ACCEPTED:
            break
    case_result.verdict = next((c.verdict for c in case_result.calls if c.verdict is not Verdict.ACCEPTED),
                               Verdict.ACCEPTED)
