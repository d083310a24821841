"""The fast path of mutant judging (:mod:`judge.author.mutation.trusted_judge`) decides a mutant only where the
confined judge decides it the same way, and hands back everything out of the ordinary."""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from judge.author.mutation.mutant_judge import Pool, kill_of
from judge.author.mutation.mutants import mutants
from judge.author.mutation.trusted_judge import UNDECIDED, TrustedRunner
from judge.judging.plan import make_plan
from judge.package.problem import find_problem

AGREEMENT = ("conv-channel-health", "backward-signal-flow")
"""problems whose every mutant is judged both ways: a conv kind, a model trained a step, float rules and strings"""
DECIDED_SHARE = 0.9
"""the fast path must decide at least this share of a problem's mutants, or it saves nothing"""
PROBLEM = "dead-relu-detector"


@pytest.fixture(scope="module")
def runner():
    trusted = TrustedRunner()
    yield trusted
    trusted.close()


def _fast(runner: TrustedRunner, plan, source: str):
    decided = runner.first_failure(plan, source)
    return decided if decided is UNDECIDED or decided is None else kill_of(decided)


@pytest.mark.slow  # two confined slots and a runner busy for a minute or two: the slow step runs one test at a time
@pytest.mark.timeout(900)
@pytest.mark.parametrize("slug", AGREEMENT)
def test_every_mutant_the_fast_path_decides_gets_the_confined_judge_s_verdict(runner, slug):
    problem = find_problem(slug)
    plan = make_plan(problem, "submit", "cpu")
    made = mutants(problem.reference.read_text())
    with Pool(2, fast=False) as confined:
        expected = confined.first_failures([(plan, m.id, m.source) for m in made])
    fast = [_fast(runner, plan, m.source) for m in made]
    decided = [(m.id, f, e) for m, f, e in zip(made, fast, expected) if f is not UNDECIDED]
    assert [d for d in decided if d[1] != d[2]] == []
    assert len(decided) >= DECIDED_SHARE * len(made), f"{len(decided)} of {len(made)} decided"
    assert None in expected and any(f is None for _, f, _ in decided), "mutants that pass every case are decided too"


REFERENCE = find_problem(PROBLEM).reference.read_text()
FIRST_METHOD = "    def detect_dead_neurons(self, model: nn.Module, x: torch.Tensor) -> List[float]:\n"


def _with_first_line(line: str) -> str:
    """The reference with ``line`` run first in its first method."""
    assert FIRST_METHOD in REFERENCE
    return REFERENCE.replace(FIRST_METHOD, FIRST_METHOD + f"        {line}\n")


@pytest.mark.parametrize("source", [
    pytest.param(_with_first_line("while True: pass"), id="an endless loop runs past the wall-clock limit"),
    pytest.param(_with_first_line("import os; os._exit(3)"), id="the process ends itself"),
    pytest.param(_with_first_line("import time; t = time.process_time()\n"
                                  "        while time.process_time() - t < 0.8: pass"), id="a call near its CPU limit"),
    pytest.param(REFERENCE + "\nraise ValueError('at import')\n", id="the import fails"),
    pytest.param(_with_first_line("x = torch.zeros(200_000_000)"), id="a call near its memory limit"),
])
def test_what_is_out_of_the_ordinary_goes_back_to_confined_workers(runner, source):
    plan = make_plan(find_problem(PROBLEM), "submit", "cpu")
    started = time.monotonic()
    assert runner.first_failure(plan, source) is UNDECIDED
    assert time.monotonic() - started < 30
    assert runner.first_failure(plan, REFERENCE) is None, "the next mutant is judged as usual"


LEFTOVERS = {
    "a patched tensor method": "torch.Tensor.mean = lambda self, *a, **k: self.sum()",
    "a patched builtin": "import builtins; builtins.round = lambda v, n=0: 0.0",
    "a patched layer": "nn.ReLU.forward = lambda self, x: x",
    "the default dtype": "torch.set_default_dtype(torch.float64)",
    "warnings raised as errors": "import warnings; warnings.simplefilter('error')",
    "numpy errors raised": "import numpy; numpy.seterr(all='raise')",
    "the recursion limit": "import sys; sys.setrecursionlimit(60)",
    "denormals flushed": "torch.set_flush_denormal(True)",
    "an environment variable": "import os; os.environ['OMP_NUM_THREADS'] = '7'",
}
"""what a red team's mutants left behind in a shared process, each of which changed a later mutant's verdict"""


@pytest.mark.parametrize("line", LEFTOVERS.values(), ids=LEFTOVERS.keys())
def test_nothing_a_mutant_changes_reaches_the_next_one(runner, line):
    plan = make_plan(find_problem(PROBLEM), "submit", "cpu")
    runner.first_failure(plan, _with_first_line(line))
    assert runner.first_failure(plan, REFERENCE) is None


def _confined(plan, source: str):
    with Pool(1, fast=False) as confined:
        return confined.first_failures([(plan, "x", source)])[0]


STATEFUL = {
    "a mutable default argument": REFERENCE.replace(
        FIRST_METHOD + "        fractions = []\n",
        "    def detect_dead_neurons(self, model, x, fractions=[]):\n"),
    "wrong on the first call only": REFERENCE.replace("class Solution:\n", "class Solution:\n    calls = 0\n").replace(
        FIRST_METHOD + "        fractions = []\n",
        FIRST_METHOD + "        Solution.calls += 1\n        fractions = [] if Solution.calls > 1 else [1.0]\n"),
}
"""solutions whose answer depends on the calls before: a session makes one untimed warm-up call first"""
STOPPED = {
    "a reply over the cap": REFERENCE.replace("        return fractions\n", "        return fractions * 200000\n"),
    "a file written": _with_first_line("open('debug.bin', 'wb').write(b'x' * (20 << 20))"),
    "a file read outside": _with_first_line("open('/etc/passwd').read()"),
    "a process started": _with_first_line("import os, time\n        if os.fork() == 0: time.sleep(60)"),
    "threads started": _with_first_line(
        "import threading, time\n        ts = [threading.Thread(target=time.sleep, args=(0.01,)) for _ in range(300)]"
        "\n        [t.start() for t in ts]; [t.join() for t in ts]"),
    "virtual memory reserved": _with_first_line("buffer = torch.empty(1_000_000_000)"),
    "a folder listed outside": _with_first_line("import os; os.listdir('/etc')"),
    "a socket opened": _with_first_line("import socket; socket.socket().close()"),
    "one thread started": _with_first_line(
        "import threading; t = threading.Thread(target=len, args=((),)); t.start(); t.join()"),
}
"""what a confined worker stops (a limit, the sandbox) and the fast path does not: never decided there"""


@pytest.mark.parametrize("source", [*STATEFUL.values(), *STOPPED.values()], ids=[*STATEFUL, *STOPPED])
def test_the_fast_path_decides_only_as_the_confined_judge_does(runner, source):
    plan = make_plan(find_problem(PROBLEM), "submit", "cpu")
    fast = _fast(runner, plan, source)
    assert fast is UNDECIDED or fast == _confined(plan, source)
    if source in STOPPED.values():
        assert fast is UNDECIDED
    assert runner.first_failure(plan, REFERENCE) is None


def test_no_process_a_mutant_starts_outlives_it(runner):
    plan = make_plan(find_problem(PROBLEM), "submit", "cpu")
    escape = _with_first_line("import os\n        if os.fork() == 0:\n            os.setsid()\n"
                              "            os.execv('/bin/sleep', ['sleep', '77.25'])")
    assert runner.first_failure(plan, escape) is UNDECIDED
    runner.close()
    assert not [p for p in Path("/proc").glob("[0-9]*") if b"77.25" in _cmdline(p)]


def _cmdline(process: Path) -> bytes:
    try:
        return (process / "cmdline").read_bytes()
    except OSError:
        return b""


def test_a_wrong_answer_names_the_case_the_method_and_the_field(runner):
    plan = make_plan(find_problem(PROBLEM), "submit", "cpu")
    wrong = REFERENCE.replace("return 'use_leaky_relu'", "return 'reinitialize'")
    kill = _fast(runner, plan, wrong)
    assert kill is not UNDECIDED and kill is not None
    assert (kill.verdict, kill.method) == ("wrong_answer", "suggest_fix") and kill.case.startswith("sample/")


def test_cases_this_process_does_not_build_as_judge_gen_did_go_back_to_confined_workers(runner):
    """As a session's checker does before any submission runs: a plan whose builds no calibration here checked is
    checked once, and a case whose checksum differs sends every mutant of that plan to confined workers."""
    plan = make_plan(find_problem(PROBLEM), "submit", "cpu")
    unchecked = dataclasses.replace(plan, builds_checked=False)
    assert runner.first_failure(unchecked, REFERENCE) is None
    drifted = dataclasses.replace(plan, builds_checked=False, cases=[
        dataclasses.replace(plan.cases[0], build_sha256="0" * 64), *plan.cases[1:]])
    assert runner.first_failure(drifted, REFERENCE) is UNDECIDED


def test_emptying_the_scratch_folder_never_follows_a_link_out_of_it(runner, tmp_path):
    """A mutant may leave links in its scratch folder, or swap the folder itself for a link: the runner empties the
    folder it was given, through the descriptor it opened, and the files a link points to stay."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep")
    plan = make_plan(find_problem(PROBLEM), "submit", "cpu")
    links = _with_first_line(f"import os\n        if not os.path.lexists('link'): os.symlink({str(victim)!r}, 'link'); "
                             f"os.mkdir('sub'); os.symlink({str(victim)!r}, 'sub/link')")
    swap = _with_first_line(f"import os\n        here = os.getcwd()\n        if not os.path.islink(here): "
                            f"os.rename(here, here + '-moved'); os.symlink({str(victim)!r}, here)")
    for source in (links, swap):
        runner.first_failure(plan, source)
        runner.first_failure(plan, REFERENCE)
        assert (victim / "precious.txt").read_text() == "keep"
    runner.close()
    for moved in Path(tempfile.gettempdir()).glob("judge-trusted-*-moved"):
        shutil.rmtree(moved)
