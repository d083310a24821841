"""An author's path: ``judge new`` -> reference and cases -> ``judge gen`` -> ``judge verify``, without touching
judge code; and what ``verify`` reports when a package is broken in several places at once."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

import pytest

from judge.author.scaffold import SKELETON
from tests.support.cli import REFERENCE_SOURCE, SLUG, judge_env, judge_json, run_judge
from tests.support.toy import TOY_CASES, TOY_MEMORY_MB, build_toy

REFERENCE = textwrap.dedent('''
    import torch


    class Solution:
        def solve(self, x: torch.Tensor) -> float:
            return round(x.abs().mean().item(), 4)
''')


def _new(tmp_path, slug: str = "demo"):
    (tmp_path / "problems").mkdir(exist_ok=True)
    return run_judge(["new", slug], tmp_path)


def test_new_then_reference_case_and_gen_gives_a_package_verify_accepts(tmp_path):
    made = _new(tmp_path)
    assert made.returncode == 0, made.stderr
    assert "judge gen demo" in made.stdout
    package, reference = tmp_path / "problems" / "demo", tmp_path / "solutions" / "demo.py"
    assert (package / "problem.toml").read_text().startswith("# A new problem")
    assert 'slug = "demo"' in (package / "problem.toml").read_text() and reference.exists()

    stub = run_judge(["gen", "demo"], tmp_path)  # the stub raises: gen says where, and writes nothing
    assert stub.returncode == 1 and "NotImplementedError" in stub.stdout and "call 0 (solve)" in stub.stdout

    reference.write_text(REFERENCE)
    hidden = {"title": "uniform", "objects": {"x": {"kind": "tensor", "seed": 5, "shape": [16, 3], "init": "uniform"}},
              "calls": [{"method": "solve", "args": ["$x"]}]}
    (package / "cases" / "hidden" / "01-uniform.json").write_text(json.dumps(hidden))
    generated = run_judge(["gen", "demo"], tmp_path)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert "2 cases kept, 0 rejected" in generated.stdout
    assert "code paths rerun, each in a worker of its own: " in generated.stdout  # and which, and what each moved:
    assert "drift    float32, 4 threads: at most " in generated.stdout and "not rerun: OPENBLAS_CORETYPE" in generated.stdout

    verified = run_judge(["verify", "demo"], tmp_path)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "demo: ok" in verified.stdout and "0 failed, 0 error(s)" in verified.stdout
    statement = run_judge(["statement", "demo", "--lang", "zh"], tmp_path)
    assert statement.returncode == 0 and "|got - expected| <= 1e-4 * max(1, |expected|) + 1e-9" in statement.stdout


def test_new_refuses_a_bad_slug_and_an_existing_package(tmp_path):
    bad = _new(tmp_path, "Bad_Slug")
    assert bad.returncode == 2 and "not a valid slug" in bad.stderr
    assert _new(tmp_path).returncode == 0
    again = _new(tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr


def test_the_skeleton_fills_every_placeholder():
    for path in SKELETON.rglob("*"):
        if path.is_file() and path.name in ("problem.toml", "reference.py"):
            assert set(re.findall(r"\$(\w+)", path.read_text())) <= {"slug", "title"}, path


def test_verify_reports_every_problem_in_every_package(tmp_path):
    """Two broken packages, two faults each: all four are reported, with the summary line. A bundled problem is
    named too: JUDGE_PROBLEMS comes first, it does not replace the bundle (every bundled package is verified by
    the slow tests of tests/test_packages.py; checking all eighteen here took over 300 s on a loaded 2-core box)."""
    for slug in ("first", "second"):
        assert _new(tmp_path, slug).returncode == 0
        (tmp_path / "solutions" / f"{slug}.py").write_text(REFERENCE)
        assert run_judge(["gen", slug], tmp_path).returncode == 0
        (tmp_path / "problems" / slug / "starter.py").write_text("def broken(:\n")
        toml = tmp_path / "problems" / slug / "problem.toml"
        toml.write_text(toml.read_text() + '\n[[pitfalls]]\nid = "forgot"\nsummary = "no declared submission"\n')
    result = run_judge(["verify", "--no-submissions", "first", "second", "dead-relu-detector"], tmp_path)
    assert result.returncode == 1
    for slug in ("first", "second"):
        assert f"problems/{slug}/starter.py: the starter does not compile" in result.stdout
        assert "pitfall 'forgot' has no declared wrong submission" in result.stdout
        assert f"{slug}: FAILED" in result.stdout
    assert "dead-relu-detector: ok" in result.stdout
    assert re.search(r"\n3 problem\(s\): 2 failed, 4 error\(s\)", result.stdout), result.stdout[-500:]


def test_a_problem_tolerance_reaches_verdicts_reports_and_statements(tmp_path):
    """``[comparison]`` loosened to 0.05: a submission 0.01 off everywhere is accepted, and every text says so."""
    root = build_toy(tmp_path, {"sample/01-small": TOY_CASES["sample/01-small"]}, TOY_MEMORY_MB)
    toml = root / "problems" / SLUG / "problem.toml"
    toml.write_text(toml.read_text() + "\n[comparison]\nabsolute = 0.05\nrelative = 0.05\n")
    off = tmp_path / "off.py"
    off.write_text(REFERENCE_SOURCE.replace("def _r(t", "def _r_exact(t").replace(
        "class Solution", "def _r(t):\n    return _r_exact(t) + 0.01\n\n\nclass Solution"))
    code, report = judge_json(["run", SLUG, str(off)], root)
    assert (code, report["verdict"]) == (0, "accepted")
    formula = "|got - expected| <= 0.05 * max(1, |expected|) + 1e-9"
    assert report["judge"]["comparison_rule"] == formula
    assert formula in run_judge(["statement", SLUG], root).stdout
    toml.write_text(toml.read_text().replace("absolute = 0.05\nrelative = 0.05", "absolute = 0.001\nrelative = 0.001"))
    code, report = judge_json(["run", SLUG, str(off)], root)
    assert (code, report["verdict"]) == (1, "wrong_answer")
    first = report["tests"][0]["extra_data"]["calls"][0]["differences"][0]
    assert first["tolerance"] == pytest.approx(max(0.001, 0.001 * abs(first["expected"])) + 1e-9)


def test_new_without_judge_problems_writes_into_the_current_folder_never_the_bundle(tmp_path):
    from judge.package.problem import bundle

    env = {k: v for k, v in judge_env(None).items() if k not in ("JUDGE_PROBLEMS", "JUDGE_SOLUTIONS")}
    made = subprocess.run([sys.executable, "-m", "judge", "new", "fresh-idea"], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=120)
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "problems" / "fresh-idea" / "problem.toml").is_file()
    assert (tmp_path / "solutions" / "fresh-idea.py").is_file()
    assert not (bundle() / "problems" / "fresh-idea").exists()
    assert f"JUDGE_PROBLEMS={tmp_path / 'problems'}" in made.stdout  # how to make the judge find it


def test_verify_warns_of_an_accepted_submission_that_uses_more_than_half_a_limit(tmp_path):
    """docs/authoring.md: a declared accepted submission (or the reference) that uses more than half a case's
    CPU-time limit is a warning: on a slower machine it would not be accepted."""
    from judge.judging.plan import make_plan
    from judge.package.problem import load_problem

    root = build_toy(tmp_path, TOY_CASES, TOY_MEMORY_MB)
    package = root / "problems" / SLUG
    limit = min(limits.cpu_s for limits in make_plan(load_problem(package), "submit", "cpu").limits)
    slow = package / "submissions" / "accepted" / "slow.py"
    slow.parent.mkdir(parents=True, exist_ok=True)
    slow.write_text(REFERENCE_SOURCE + textwrap.dedent(f"""

        import time
        class Solution(Solution):
            def compute_activation_stats(self, model, x):
                started = time.process_time()
                while time.process_time() - started < {0.7 * limit}:
                    pass
                return super().compute_activation_stats(model, x)
        """))
    result = run_judge(["verify", SLUG, "--no-mutation", "--warnings"], root)  # fails: the toy lacks cases hints need
    assert re.search(r"\nok +accepted +slow\.py\n", result.stdout), result.stdout[-2000:] + result.stderr[-2000:]
    warned = [line for line in result.stdout.splitlines() if "slow.py:" in line]
    assert warned and all("CPU-time limit" in line for line in warned), result.stdout[-2000:]
    assert not [line for line in result.stdout.splitlines() if "CPU-time limit" in line and "slow.py" not in line]
