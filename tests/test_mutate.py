"""``judge mutate`` end to end through the real judge, ``judge verify`` enforcing the floor, and every bundled
problem's score as the README states it, declared equivalents rechecked, and as the result its package keeps for
``judge verify`` to replay says (slow: each judges every mutant of a reference; all eighteen problems take about
five minutes on two cores, docs/benchmarks.md)."""

from __future__ import annotations

import json
import re
import shutil
from types import SimpleNamespace

import pytest

from judge.author.mutation.mutant_judge import Pool
from judge.author.mutation.mutants import mutants
from judge.author.mutation import record
from judge.author.mutation.mutate import mutate
from judge.author.mutation.mutation_check import report
from judge.package.problem import available, find_problem
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
            assert outcome["status"] == "equivalent" and outcome["evidence"]  # the search's, whatever is declared
            assert outcome["evidence_class"] in ("searched", "unreached")
    assert sum(run["evidence"].values()) == run["equivalent"]
    assert _readme_row(SLUG)[3:] == [str(run["mutants"]), _equivalents(run["evidence"]), "100 %"]


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

    declared = root / "problems" / SLUG / "problem.toml"  # a declaration is never taken on its author's word
    declared.write_text(declared.read_text() + f'\n[[mutation.equivalent]]\nid = "{survivors[0]["id"]}"\n'
                        'reason = "declared to hide a survivor"\n')
    verified = run_judge(["verify", SLUG], root, timeout=1800)
    assert verified.returncode == 1
    assert f"declares mutant {survivors[0]['id']} equivalent, but" in verified.stdout, verified.stdout[-3000:]
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


def _readme_row(slug: str) -> list[str]:
    line = next(line for line in (REPO / "README.md").read_text().splitlines() if line.startswith(f"| `{slug}`"))
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _equivalents(evidence: dict[str, int]) -> str:
    """The README's equivalent cell: ``23 = 13 searched + 10 unreached``, ``0``"""
    total = sum(evidence.values())
    parts = [f"{count} {kind}" for kind, count in evidence.items() if count]
    return f"{total} = {' + '.join(parts)}" if parts else "0"


@pytest.fixture(scope="module")
def pool():
    with Pool(2) as slots:
        yield slots


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("slug", available())
def test_every_bundled_problem_scores_its_floor_with_every_equivalent_shown_by_the_search(pool, slug):
    """What the README's table states, measured: every mutant killed or shown equivalent by the generated inputs
    (declared or not), no declaration stale, and the table's counts and evidence are this run's."""
    problem = find_problem(slug)
    measured = mutate(problem, pool)
    run = measured.as_json()
    assert run["survived"] == run["error"] == 0 and not run["stale_declarations"], [
        (o["id"], o["after"], o["witness"]) for o in run["outcomes"]
        if o["status"] in ("survived", "error")] or run["stale_declarations"]
    assert run["score"] == 1.0 == run["floor"]
    assert all(o["evidence_class"] for o in run["outcomes"] if o["status"] == "equivalent")
    assert _readme_row(slug)[3:] == [str(run["mutants"]), _equivalents(run["evidence"]), "100 %"]
    kept = record.load(problem, "cpu")  # what a fresh clone's judge verify replays instead of measuring
    heard = record.Recording(SimpleNamespace(log=print, warning=print, error=print))
    report(measured, problem, heard)  # every line judge verify's mutation step says of this run
    assert kept is not None and kept.statuses == {o["id"]: o["status"] for o in run["outcomes"]}
    assert kept.events == heard.events
