"""``judge run --case FILE``: a case of one's own, validated like the package's, judged in full detail; without
expected values its outputs are shown; never recorded in the history."""

from __future__ import annotations

import json

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
