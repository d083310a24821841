"""``judge run --case FILE``: a case of one's own, validated like the package's, judged in full detail; without
expected values its outputs are shown, with the verdict ``ran``; never recorded in the history. A learner's bad
case gets one line and exit status 2, never an internal error."""

from __future__ import annotations

import json

from tests.support.cases import BAD_CASES
from tests.support.cli import REFERENCE_SOURCE, SLUG, run_judge

WRONG = REFERENCE_SOURCE.replace("'std': _r(x.std())", "'std': _r(x.std(correction=0))")


def test_a_case_of_ones_own_shows_its_outputs_or_compares_them(toy_root, tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))
    sample = next((toy_root / "problems" / SLUG / "cases" / "sample").glob("*.json"))
    raw = json.loads(sample.read_text())
    mine, solution = tmp_path / "mine.json", tmp_path / "solution.py"
    mine.write_text(json.dumps({"title": "my batch", "objects": raw["objects"], "calls": raw["calls"][:1]}))
    solution.write_text(REFERENCE_SOURCE)
    shown = run_judge(["run", SLUG, str(solution), "--case", str(mine)], toy_root)
    assert shown.returncode == 0, shown.stderr
    assert "custom/mine: my batch ── no expected values: the outputs" in shown.stdout
    assert "verdict: ran · nothing to compare" in shown.stdout  # it once said "accepted · 1/1 ... passed"
    assert "accepted" not in shown.stdout and "passed" not in shown.stdout
    got = json.dumps(raw["expected"]["cpu"]["outputs"][0])[:60]
    assert "compute_activation_stats returned" in shown.stdout and got in shown.stdout.replace("\n    ", "")

    mine.write_text(json.dumps({**raw, "title": "my batch"}))  # with the expected values
    solution.write_text(WRONG)
    compared = run_judge(["run", SLUG, str(solution), "--case", str(mine)], toy_root)
    assert compared.returncode == 1 and "custom/mine: my batch ── wrong_answer" in compared.stdout
    assert "layer 1 · std" in compared.stdout
    assert "no attempts" in run_judge(["history", SLUG], toy_root).stdout  # drafts, not attempts

    mine.write_text(json.dumps({"calls": [{"method": "nope", "args": []}]}))
    bad = run_judge(["run", SLUG, str(solution), "--case", str(mine)], toy_root)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "calls[0].method" in bad.stderr


def test_a_bad_case_of_ones_own_gets_one_line_and_exit_2(toy_root, tmp_path):
    solution, mine = tmp_path / "solution.py", tmp_path / "mine.json"
    solution.write_text(REFERENCE_SOURCE)
    for text, words in BAD_CASES:
        mine.write_text(text)
        bad = run_judge(["run", SLUG, str(solution), "--case", str(mine)], toy_root)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1, bad.stderr[-500:]
        assert bad.stderr.startswith(f"judge: {mine}") and words in bad.stderr, bad.stderr


def test_a_pasted_sample_case_is_judged_with_the_judges_own_fields_ignored(toy_root, tmp_path, monkeypatch):
    """A sample case file pasted as it is was once refused ("field mistakes: expected nothing")."""
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))
    sample = next((toy_root / "problems" / SLUG / "cases" / "sample").glob("*.json"))
    raw = json.loads(sample.read_text())
    mine, solution = tmp_path / "mine.json", tmp_path / "solution.py"
    pasted = {**raw, "mistakes": [{"pitfall": "x", "call": 0, "output": 1}], "translations": {"zh": {"title": "批"}},
              "build_sha256": "0" * 64}  # the judge's fields, a stale checksum among them: ignored, not refused
    mine.write_text(json.dumps(pasted))
    solution.write_text(REFERENCE_SOURCE)
    judged = run_judge(["run", SLUG, str(solution), "--case", str(mine)], toy_root)
    assert judged.returncode == 0, judged.stderr
    assert "verdict: accepted" in judged.stdout
    assert "ignored build_sha256, mistakes, translations: only the judge uses them" in judged.stdout
