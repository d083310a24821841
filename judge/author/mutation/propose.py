"""``judge gen SLUG --kill ID``: write the hidden case that kills a mutant the cases let through.

The mutant is judged as ``judge mutate`` judges it (:func:`.mutate.mutate`). When it survives the
cases and a generated input kills it, that input, shrunk to the changes that matter, becomes a new hidden case
``cases/hidden/NN-kills-ID.json`` (NN: the next free number), with its expected values stored as ``judge gen``
stores them, so a later ``judge gen`` reproduces the file byte for byte. Its title names the case it was made
from, the changes and the mutant; the author should say in it what the case tests.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from judge import messages
from judge.author.generate import check_case, record_case
from judge.author.mutation.mutant_judge import Pool
from judge.author.mutation.mutate import EQUIVALENT, KILLED, mutate
from judge.author.reference import load_reference
from judge.errors import BadInput
from judge.package.cases import parse_case
from judge.package.problem import Problem

Log = Callable[[str], None]


def _next_path(problem: Problem, mutant_id: str) -> Path:
    folder = problem.root / "cases" / "hidden"
    numbers = [int(m.group(1)) for p in folder.glob("*.json") if (m := re.match(r"(\d+)-", p.name))]
    return folder / f"{max(numbers, default=0) + 1:02d}-kills-{mutant_id}.json"


def kill(problem: Problem, mutant_id: str, pool: Pool, dry_run: bool = False, log: Log = print) -> bool:
    """Write the case that kills mutant ``mutant_id`` of ``problem``; False when there is none to write."""
    outcome = mutate(problem, pool, only=mutant_id).outcomes[0]
    mutant = outcome.mutant
    if outcome.status == KILLED:
        log(messages.say("kill_already", id=mutant_id, case=outcome.kill.case))
        return True
    if outcome.witness is None:
        log(messages.say("kill_nothing" if outcome.status == EQUIVALENT else "kill_survivor_nothing",
                         id=mutant_id, path=problem.root / "problem.toml"))
        return False
    witness = outcome.witness
    origin = next(c for c in problem.cases if c.id == witness.origin)
    raw = {**witness.raw, "title": messages.say("kill_title", title=origin.title, case=witness.described,
                                                id=mutant_id, line=mutant.line, change=mutant.change)}
    path = _next_path(problem, mutant_id)
    case = parse_case(raw, path, "hidden", {m["name"] for m in problem.methods})
    checked = check_case(problem, load_reference(problem), case)
    if checked.expected is None or checked.errors:  # sound when it was shrunk, so this is the judge's own fault
        raise BadInput("problem_invalid", path=path, problem="; ".join(map(str, checked.errors)))
    if not dry_run:
        record_case(case, checked)
    log(messages.say("kill_written", path=path, id=mutant_id, change=mutant.change))
    return True
