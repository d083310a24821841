"""``judge mutate`` end to end through the real judge, and ``judge verify`` enforcing the floor (slow: both judge
every mutant of a reference)."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from judge.author.mutation.mutants import mutants
from judge.package.problem import find_problem
from tests.support.cli import REPO, run_judge

SLUG = "dead-relu-detector"
WEAKENED = ["10-fix-strict-thresholds", "11-fix-increase-rules", "12-fix-first-layer-only", "13-fix-priority",
            "14-fix-edge-lists"]
"""dead-relu-detector's hidden rule-table cases: without them, strictness and priority mistakes in suggest_fix
are caught by the few sample rule calls only"""


def _mutate(root=None, slug: str = SLUG) -> tuple[int, dict]:
    result = run_judge(["mutate", slug, "--format", "json"], root, timeout=1800)
    assert result.stdout, result.stderr
    return result.returncode, json.loads(result.stdout)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_one_problem_scores_every_mutant_end_to_end():
    code, run = _mutate()
    problem = find_problem(SLUG)
    made = mutants(problem.reference.read_text())
    assert code == 0 and run["score"] == 1.0 and run["floor"] == 1.0
    assert run["mutants"] == run["generated"] == len(made)
    assert [o["id"] for o in run["outcomes"]] == [m.id for m in made]
    assert run["killed"] + run["equivalent"] == run["mutants"] and run["survived"] == run["error"] == 0
    cases = {c.id for c in problem.cases}
    for outcome in run["outcomes"]:
        if outcome["status"] == "killed":
            assert outcome["killed_by"]["case"] in cases and outcome["killed_by"]["verdict"] != "accepted"
        else:
            assert outcome["status"] == "equivalent" and outcome["reason"]
    row = next(line for line in (REPO / "README.md").read_text().splitlines() if line.startswith(f"| `{SLUG}`"))
    assert f"| {run['mutants']} | 100 % |" in row


@pytest.mark.slow
@pytest.mark.timeout(3600)  # mutate, verify (declared submissions and mutants), gen --kill, gen, mutate again
def test_a_weakened_case_set_is_caught(tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(REPO / "problems" / SLUG, root / "problems" / SLUG)
    shutil.copytree(REPO / "solutions", root / "solutions")
    for name in WEAKENED:
        (root / "problems" / SLUG / "cases" / "hidden" / f"{name}.json").unlink()
    code, run = _mutate(root)
    assert code == 1 and run["score"] < 1.0 and run["survived"] > 0
    survivors = [o for o in run["outcomes"] if o["status"] == "survived"]
    assert all(o["witness"] and o["witness"]["kill"]["verdict"] == "wrong_answer" for o in survivors)

    verified = run_judge(["verify", SLUG], root, timeout=1800)
    assert verified.returncode == 1
    assert re.search(r"mutation score \d+\.\d% .* below the floor 100\.0%", verified.stdout), verified.stdout[-3000:]
    assert f"survived   {survivors[0]['id']}" in verified.stdout
    assert f"judge gen {SLUG} --kill" in verified.stdout

    killed = run_judge(["gen", SLUG, "--kill", survivors[0]["id"]], root, timeout=1800)
    assert killed.returncode == 0 and "kills mutant" in killed.stdout, killed.stdout + killed.stderr
    written = sorted((root / "problems" / SLUG / "cases" / "hidden").glob(f"*-kills-{survivors[0]['id']}.json"))
    assert len(written) == 1
    proposed = written[0].read_text()
    regenerated = run_judge(["gen", SLUG], root, timeout=1800)
    assert regenerated.returncode == 0 and written[0].read_text() == proposed  # judge gen reproduces it
    _, again = _mutate(root)
    fixed = next(o for o in again["outcomes"] if o["id"] == survivors[0]["id"])
    assert fixed["status"] == "killed" and fixed["killed_by"]["case"] == f"hidden/{written[0].stem}"
    assert again["score"] > run["score"]
