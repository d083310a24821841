"""The hint catalogue: each hint is triggered by its pitfall's declared submission, and never by a correct one."""

from __future__ import annotations

import json
import shutil

import pytest

from judge.judging.hints import carries
from judge.judging.plan import make_plan
from judge.judging.submission import read_submission
from judge.package.problem import available, find_problem
from judge.judging.pool import WorkerPool
from judge.pipeline import Judge, Submitted
from judge.worker import probe
from tests.support.cli import REFERENCE_SOURCE, REPO, SLUG, judge_json, run_judge

STATS = [{"mean": 0.5, "std": 1.0}, {"mean": -0.25, "std": 2.0}]
POPULATION = [{"mean": 0.5, "std": 0.9}, {"mean": -0.25, "std": 1.8}]


@pytest.mark.parametrize("got, mistake, expected, shown", [
    (POPULATION, POPULATION, STATS, True),
    ([{"mean": 0.50004, "std": 0.9}, {"mean": -0.25, "std": 1.80003}], POPULATION, STATS, True),  # within tolerance
    (STATS, POPULATION, STATS, False),                                    # correct output
    ([{"mean": 0.7, "std": 0.9}, {"mean": -0.25, "std": 1.8}], POPULATION, STATS, True),   # a second mistake
    ([{"mean": 0.5, "std": 0.9}, {"mean": -0.25, "std": 2.0}], POPULATION, STATS, False),  # only half of it
    ([{"mean": 0.5, "std": 0.7}, {"mean": -0.25, "std": 1.4}], POPULATION, STATS, False),  # another std mistake
    (STATS[:1], POPULATION[:1], STATS, False),                            # structure: must agree everywhere
    (POPULATION[:1], POPULATION[:1], STATS, True),
    (STATS + STATS[:1], STATS + STATS[:1], STATS, True),
    ([*STATS, {"mean": 0.0, "std": 9.0}], STATS + STATS[:1], STATS, False),
    ("dead_neurons", "dead_neurons", "healthy", True),
    ("vanishing_gradients", "dead_neurons", "healthy", False),
    ("healthy", "healthy", "healthy", False),                             # a mistake that does not depart
    ([{"mean": True, "std": 0.9}, POPULATION[1]], POPULATION, STATS, False),  # not even an answer
])
def test_carries(got, mistake, expected, shown):
    assert carries(got, mistake, expected) is shown


def _hints(report: dict) -> set[str]:
    return {h["pitfall"] for t in report["tests"] for c in t["extra_data"]["calls"] for h in c.get("hints", [])}


def _declared(verdict: str) -> list:
    found = []
    for slug in available():
        problem = find_problem(slug)
        found += [pytest.param(slug, d, id=f"{slug}/{d.path.stem}") for d in problem.declared_submissions()
                  if (d.pitfall in problem.hints if verdict == "hinted" else d.verdict == verdict)]
    return found


@pytest.fixture(scope="module")
def run_report():
    """``judge run``'s report for a declared submission, judged by warm workers (one zygote for the module, one
    plan per problem): the CLI's own path is tested elsewhere, and a fresh process per submission would make
    these checks, which grow with every problem, the slowest of the suite."""
    pool, judges = WorkerPool(probe.confinement("cpu")), {}

    def run(slug, path):
        if slug not in judges:
            judges[slug] = Judge(make_plan(find_problem(slug), "run", "cpu"), pool)
        return judges[slug].judge(Submitted(path, read_submission(path)))

    yield run
    pool.close()


@pytest.mark.parametrize("slug, declared", _declared("hinted"))
def test_each_hint_is_triggered_by_its_declared_submission_alone(run_report, slug, declared):
    report = run_report(slug, declared.path)
    assert report["verdict"] == "wrong_answer"
    assert _hints(report) == {declared.pitfall}


@pytest.mark.parametrize("slug, declared", _declared("accepted"))
def test_no_hint_for_an_accepted_variant(run_report, slug, declared):
    report = run_report(slug, declared.path)
    assert (report["verdict"], _hints(report)) == ("accepted", set())


@pytest.mark.parametrize("slug", available())
def test_every_hinted_pitfall_is_covered(slug):
    """The parametrised tests above cover the whole catalogue: no hint without a declared submission."""
    problem = find_problem(slug)
    assert set(problem.hints) <= {d.pitfall for d in problem.declared_submissions()}


def test_two_mistakes_give_two_hints(write_submission):
    source = REFERENCE_SOURCE.replace("'std': _r(x.std())", "'std': _r(x.std(correction=0))").replace(
        "dead = (x <= 0).all(dim=0).float().mean()", "dead = (x <= 0).float().mean()")
    _, report = judge_json(["run", SLUG, str(write_submission(source))])
    first = report["tests"][0]["extra_data"]["calls"][0]
    assert {h["pitfall"] for h in first["hints"]} == {"population-std-activation", "per-element-dead"}


def test_submit_gives_hints_for_samples_and_says_nothing_about_hidden_cases():
    declared = REPO / "problems" / SLUG / "submissions" / "wrong_answer" / "no-zero-grad.py"
    _, report = judge_json(["submit", SLUG, str(declared)])
    assert _hints(report) == {"no-zero-grad"}
    hidden = [t for t in report["tests"] if t["extra_data"]["hidden"]]
    assert any(t["status"] == "failed" for t in hidden)  # the hidden stale-gradient case fails too ...
    assert all("hints" not in c for t in hidden for c in t["extra_data"]["calls"])  # ... without a word


def test_verify_catches_stale_and_unreachable_hints(tmp_path):
    slug = "dead-relu-detector"
    shutil.copytree(REPO / "problems" / slug, tmp_path / "problems" / slug)
    shutil.copytree(REPO / "solutions", tmp_path / "solutions")
    sample = tmp_path / "problems" / slug / "cases" / "sample" / "01-healthy-kaiming-mlp.json"
    case = json.loads(sample.read_text())
    case["mistakes"][0]["output"] = [0.5, 0.5, 0.5]
    sample.write_text(json.dumps(case))
    stale = run_judge(["verify", slug, "--no-submissions"], tmp_path)
    assert stale.returncode == 1 and "mistakes after-linear call 0" in stale.stdout
    toml = tmp_path / "problems" / slug / "problem.toml"
    toml.write_text(toml.read_text().replace('id = "counts-leaky-relu"\n', 'id = "counts-leaky-relu"\nhint = "x"\n'))
    unreachable = run_judge(["verify", slug, "--no-submissions"], tmp_path)
    assert unreachable.returncode == 1
    assert "pitfall 'counts-leaky-relu' has a hint, but no sample case" in unreachable.stdout
