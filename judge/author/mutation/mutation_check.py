"""``judge verify``'s mutation step: each problem's mutation score, and an error under its floor.

One :class:`.mutant_judge.Pool` (a zygote per core) serves every problem of a verify run. For each
problem it prints the score, every survivor with the smallest input change that kills it (and the
``judge gen --kill`` command that adds it), and reports as errors a score under ``[mutation] floor`` and every
stale equivalence declaration; a mutant the judge failed on is a warning. A run with neither is kept in the
package (:mod:`.record`) and replayed while nothing it depends on changes, unless ``recompute``.
"""

from __future__ import annotations

from typing import Any

from judge import messages
from judge.author.mutation.mutant_judge import Pool
from judge.author.mutation import record
from judge.author.mutation.mutate import ERROR, SURVIVED, Run, mutate, render_text


class MutationCheck:
    def __init__(self, device: str = "cpu", recompute: bool = False, slots: int | None = None):
        self.device, self.recompute, self.slots = device, recompute, slots
        self.pool: Pool | None = None

    def __call__(self, problem: Any, tally: Any) -> None:
        """Report the mutants of ``problem`` to ``tally`` (``log``, ``error``, ``warning``): from an up-to-date
        record, or run now and recorded."""
        kept = None if self.recompute else record.load(problem, self.device)
        if kept is not None:
            tally.log(messages.say("mutate_reused", slug=problem.slug, record=record.path(problem, self.device).name,
                                   machine=kept.measured_on))
            for kind, text in kept.events:
                getattr(tally, kind)(text)
            return
        try:
            measured = record.key(problem, self.device)  # before the run: an edit made meanwhile is not kept as run
        except OSError:
            measured = None
        recording = record.Recording(tally)
        run = self._report(problem, recording)
        if measured and not run.count(ERROR) and not any(kind == "error" for kind, _ in recording.events):
            record.store(problem, self.device, measured, {o.mutant.id: o.status for o in run.outcomes},
                         recording.events)

    def _report(self, problem: Any, tally: Any) -> Run:
        """Run the mutants, report them, and return the run."""
        if self.pool is None:
            self.pool = Pool(self.slots, device=self.device)
        run = mutate(problem, self.pool, device=self.device)
        report(run, problem, tally)
        return run

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None


def report(run: Run, problem: Any, tally: Any) -> None:
    """What the step says of ``run``: every survivor with its fix, a warning for each mutant the judge failed on, an
    error for each stale declaration and for a score under the floor, and the score."""
    for line in render_text(run, problem.reference, listed=(SURVIVED,)).splitlines()[1:-1]:
        if line not in run.stale:
            tally.log(line)
    for outcome in run.outcomes:
        if outcome.status == ERROR:
            tally.warning(messages.say("mutate_line", status=ERROR, id=outcome.mutant.id, line=outcome.mutant.line,
                                       function=outcome.mutant.function, change=outcome.mutant.change))
    for stale in run.stale:
        tally.error(stale)
    tally.log(render_text(run, problem.reference, listed=()).splitlines()[-1])
    if run.below_floor:
        tally.error(messages.say("mutate_below_floor", path=problem.root / "problem.toml", score=run.score,
                                 floor=run.settings.floor))
