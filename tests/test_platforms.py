"""Gradescope and PrairieLearn autograders from ``judge export``, run by ``judge autograde`` in a folder of the
test's own (``--root``), on the toy copy of training-diagnostics (one sample case, two hidden ones).

The results are validated against JSON Schemas transcribed from each platform's documentation
(``tests/schemas/``); the end-to-end runs, with ``setup.sh`` installing the exported wheel and torch into a fresh
``/autograder`` or image prefix, are in ``test_platforms_e2e.py`` (slow).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from judge.platforms import gradescope, prairielearn
from judge.platforms.autograde import locate
from judge.platforms.config import Export, Exported, case_points, samples_only
from tests.support.cli import REFERENCE_SOURCE, SLUG, judge_env, run_judge
from tests.support.platforms import ONE_HIDDEN_WRONG, archive_text, autograde, submit, valid
from tests.support.readers import CONTROL

def export(toy_root: Path, tmp_path: Path, platform: str, *options: str) -> Path:
    """The exported files, unpacked into a folder (Gradescope's zip) or as written (PrairieLearn's grader)."""
    out = tmp_path / f"{platform}-export"
    target = out.with_suffix(".zip") if platform == "gradescope" else out
    result = run_judge(["export", platform, SLUG, "--out", str(target), *options], toy_root)
    assert result.returncode == 0, result.stderr
    if platform == "gradescope":
        with zipfile.ZipFile(target) as archive:
            archive.extractall(out)
        return out
    return out / "grader"


@pytest.fixture(scope="module")
def gradescope_export(toy_root, tmp_path_factory) -> Path:
    """The plain Gradescope export, made once for the module: each export builds a wheel, and autograding reads
    the export's files without changing them (it writes under its own root)."""
    return export(toy_root, tmp_path_factory.mktemp("plain"), "gradescope")


# -- the Gradescope zip ----------------------------------------------------------------------------------------


def test_the_zip_holds_the_installer_and_a_wheel_of_only_the_exported_problem(toy_root, gradescope_export):
    source = gradescope_export
    with zipfile.ZipFile(source.with_suffix(".zip")) as archive:
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
    assert modes["setup.sh"] == modes["run_autograder"] == 0o755
    assert {f"statements/{SLUG}.md", f"statements/{SLUG}.html", f"statements/{SLUG}.starter.py"} <= modes.keys()
    wheel = next(source.glob("*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        record = archive.read(next(n for n in names if n.endswith(".dist-info/RECORD"))).decode()
        for line in filter(None, record.splitlines()):
            path, digest, size = line.rsplit(",", 2)
            if digest:  # every file is listed with its own hash and size, as pip checks them
                data = archive.read(path)
                expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                assert digest == f"sha256={expected}" and int(size) == len(data), path
    bundled = {n.split("/")[2] for n in names if n.startswith("judge_bundle/problems/")}
    assert bundled == {SLUG}, "only the exported problem travels"
    toy_cases = {p.relative_to(toy_root / "problems" / SLUG).as_posix() for p in (toy_root / "problems" / SLUG).rglob("*.json")}
    problem = f"judge_bundle/problems/{SLUG}/"
    assert {n.removeprefix(problem) for n in names if n.startswith(problem + "cases/")} == toy_cases, "the toy's own"
    assert f"judge_bundle/solutions/{SLUG}.py" in names and not any("/submissions/" in n for n in names)
    assert "judge/platforms/templates/setup.sh.j2" in names and "judge/worker/main.py" in names
    metadata = archive_text(wheel, next(n for n in names if n.endswith(".dist-info/METADATA")))
    assert "Name: torch-diagnostics-judge" in metadata and "Requires-Dist: torch" in metadata
    config = Export.read(source / "export.json")
    assert config.problems == (Exported(SLUG, 2.0),) and config.hidden_visibility == "after_due_date"


def test_hidden_cases_carry_the_points_and_the_chosen_visibility(toy_root, tmp_path):
    source = export(toy_root, tmp_path, "gradescope", "--hidden-visibility", "after_published", "--points", "10")
    root = tmp_path / "autograder"
    submit(root, "submission", ONE_HIDDEN_WRONG, name="whatever_name.py")
    results = valid(autograde(toy_root, source, root, "gradescope"), "gradescope-results")
    by_case = {t["extra_data"]["case"]: t for t in results["tests"]}
    assert by_case["sample/01-small"]["max_score"] == 0 and by_case["sample/01-small"]["visibility"] == "visible"
    assert by_case["hidden/01-six"]["score"] == by_case["hidden/01-six"]["max_score"] == 5.0
    assert by_case["hidden/02-five"]["score"] == 0.0 and by_case["hidden/02-five"]["status"] == "failed"
    assert {t["visibility"] for t in results["tests"] if "hidden" in t["tags"]} == {"after_published"}
    assert results["score"] == 5.0
    assert "hidden/02-five" not in results["output"] and "wrong_answer" not in results["output"]
    assert "their results are shown when the grades are published" in results["output"]


def test_the_text_students_see_at_once_does_not_depend_on_any_hidden_case(toy_root, gradescope_export, tmp_path):
    """Flip every hidden case's outcome in a real report: the top-level output stays byte for byte the same."""
    source = gradescope_export
    root = tmp_path / "autograder"
    submit(root, "submission", ONE_HIDDEN_WRONG)
    autograde(toy_root, source, root, "gradescope")
    env = judge_env(toy_root)
    report = json.loads(subprocess.run([sys.executable, "-m", "judge", "submit", SLUG, str(root / "submission" /
                                        "my_solution.py"), "--format", "json"], capture_output=True, text=True,
                                       env=env, timeout=300).stdout)
    flipped = {**report, "verdict": "accepted", "tests": [
        {**t, "status": "passed", "output": "accepted", "extra_data": {**t["extra_data"], "verdict": "accepted"}}
        if t["extra_data"]["hidden"] else t for t in report["tests"]]}
    config = Export.read(source / "export.json")
    exported = config.problems[0]
    assert gradescope.results(config, [(exported, report)])["output"] == gradescope.results(
        config, [(exported, flipped)])["output"]
    assert samples_only(report)["verdict"] == "accepted" != report["verdict"]
    output = gradescope.results(config, [(exported, report)])["output"]
    assert output.startswith("Judged: 1 sample case(s), shown in full below, and 2 hidden case(s), worth 2 point(s)"
                             " together; their results are shown after the due date.")
    assert "verdict on the sample cases alone: accepted" in output and "verdict: accepted" not in output
    assert [p for p, _ in case_points(exported, report)] == [0.0, 1.0, 0.0]


@pytest.mark.parametrize("level", [None, "L1", "L0"])
def test_a_submission_cannot_write_or_replace_its_results(toy_root, gradescope_export, tmp_path, level):
    root = tmp_path / "autograder"
    target = root / "results" / "results.json"
    hostile = ONE_HIDDEN_WRONG + f'''

import os
FORGED = '{{"score": 100.0, "output": "forged", "tests": []}}'
for attack in (lambda: open({str(target)!r}, "w").write(FORGED),
               lambda: open({str(target)!r} + ".new", "w").write(FORGED),
               lambda: os.replace({str(target)!r} + ".new", {str(target)!r}),
               lambda: os.unlink({str(target)!r}),
               lambda: os.chmod({str(root / "results")!r}, 0o777)):
    try:
        attack()
    except OSError:
        pass
'''
    source = export(toy_root, tmp_path, "gradescope", "--allow-weak-sandbox") if level == "L0" else gradescope_export
    submit(root, "submission", hostile)
    target.parent.mkdir(parents=True)
    target.write_text('{"score": 99.0, "tests": []}')  # planted before the run: replaced by the judge's
    results = valid(autograde(toy_root, source, root, "gradescope", level=level), "gradescope-results")
    if level == "L0" and "uid 65534" not in results["extra_data"]["security_level"]:
        pytest.skip(f"the workers keep the judge's uid here: {results['extra_data']['security_level']}")
    assert results["score"] == 1.0 and results["extra_data"]["judged"] is True
    assert not (root / "results" / "results.json.new").exists()
    assert (root / "results").stat().st_mode & 0o777 == 0o755


@pytest.mark.parametrize("suffix, judged", [(".py", True), (".txt", False)], ids=["the solution", "not a .py file"])
def test_a_students_file_name_is_data_in_the_autograders_log_even_on_a_strict_terminal(toy_root, gradescope_export,
                                                                                       tmp_path, suffix, judged):
    """Gradescope students name their own files: a name that is not UTF-8 and holds a newline and terminal escapes
    neither forges a line of the instructor's log nor fails the judge on a strict UTF-8 stdout, whether the log
    names it as the file judged or as the file found instead of a .py file."""
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    name = b"sol\nwrote results (score 99.0)\x1b[2J\x1b]0;pwn\x07\xff" + suffix.encode()
    (root / "submission" / os.fsdecode(name)).write_text(REFERENCE_SOURCE)
    env = {**judge_env(toy_root), "PYTHONIOENCODING": "utf-8:strict"}
    result = subprocess.run([sys.executable, "-m", "judge", "autograde", "gradescope", "--config",
                             str(gradescope_export / "export.json"), "--root", str(root)],
                            capture_output=True, env=env, timeout=300)
    log = result.stdout.decode("utf-8")  # strict: the log itself is valid UTF-8
    assert result.returncode == 0, log + result.stderr.decode("utf-8", "replace")
    assert not CONTROL.search(log.replace("\n", "")) and "\\xff" in log
    assert not any(line.startswith("wrote results (score 99") for line in log.splitlines())
    results = json.loads((root / "results" / "results.json").read_text())
    full = sum(t["max_score"] for t in results["tests"])
    assert results["score"] == (full if judged else 0.0) and full > 0


def test_a_killed_autograder_leaves_valid_results_that_say_so(toy_root, gradescope_export, tmp_path):
    slow = REFERENCE_SOURCE + '''

import time
class Solution(Solution):
    def compute_activation_stats(self, model, x):
        time.sleep(0.6)
        return super().compute_activation_stats(model, x)
'''
    source = gradescope_export
    root = tmp_path / "autograder"
    submit(root, "submission", slow)
    results = root / "results" / "results.json"
    process = subprocess.Popen([sys.executable, "-m", "judge", "autograde", "gradescope", "--config",
                                str(source / "export.json"), "--root", str(root)], env=judge_env(toy_root),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline, seen = time.monotonic() + 240, []
    try:
        while time.monotonic() < deadline and process.poll() is None:
            if results.exists():
                seen.append(valid(json.loads(results.read_text()), "gradescope-results")["output"])
                if "1 of 3 cases" in seen[-1]:
                    break
            time.sleep(0.05)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    left = valid(json.loads(results.read_text()), "gradescope-results")
    assert "1 of 3 cases" in seen[-1], seen[-3:]
    assert left["score"] == 0.0 and left["extra_data"] == {"judged": False, "finished": False}
    assert "The judge did not finish" in left["output"]


def test_without_a_single_file_the_student_is_told_why(toy_root, gradescope_export, tmp_path):
    source = gradescope_export
    root = tmp_path / "autograder"
    submit(root, "submission", REFERENCE_SOURCE, "a.py")
    submit(root, "submission", REFERENCE_SOURCE, "b.py")
    results = valid(autograde(toy_root, source, root, "gradescope"), "gradescope-results")
    assert results["score"] == 0.0 and "2 .py files" in results["output"]
    assert {t["extra_data"]["verdict"] for t in results["tests"]} == {"compile_error"}


def test_leaderboard_and_cooldown(toy_root, tmp_path):
    source = export(toy_root, tmp_path, "gradescope", "--leaderboard", "--cooldown", "30")
    root = tmp_path / "autograder"
    submit(root, "submission", REFERENCE_SOURCE)
    first = valid(autograde(toy_root, source, root, "gradescope"), "gradescope-results")
    assert first["leaderboard"][0] == {"name": "hidden cases passed", "value": 2}
    assert first["leaderboard"][1]["order"] == "asc" and first["leaderboard"][1]["value"] > 0
    (root / "submission" / "my_solution.py").write_text("class Solution:\n    pass\n")  # would score 0
    (root / "submission_metadata.json").write_text(json.dumps({
        "created_at": "2026-03-01T10:20:00.000000-08:00",
        "previous_submissions": [{"submission_time": "2026-03-01T10:00:00.000000-08:00", "score": 2.0,
                                  "results": first}]}))
    again = valid(autograde(toy_root, source, root, "gradescope"), "gradescope-results")
    assert again["score"] == 2.0 and again["extra_data"]["judged"] is False
    assert again["output"].startswith("Not judged: this submission came less than 30 minutes")


def test_cooldown_counts_from_the_last_judged_submission():
    """Gradescope sends every previous submission's time and score but the results of the latest one only
    (``docs/submission_metadata.md``), so a held submission's results carry the last judged time forward: judged
    at 10:00, held at 10:10, and 10:12 under a 30-minute cooldown is held too, 10:31 is judged."""
    config = Export("gradescope", (Exported(SLUG, 2.0),), cooldown_minutes=30)
    judged = {"score": 1.0, "output": "1/2 hidden cases", "tests": [], "extra_data": {"judged": True}}

    def at(minute: int, previous: list[tuple[int, dict | None]]) -> dict:
        made = [{"submission_time": f"2026-03-01T10:{m:02d}:00.000000-08:00", "score": 1.0,
                 **({"results": r} if r is not None else {})} for m, r in previous]
        return {"created_at": f"2026-03-01T10:{minute:02d}:00.000000-08:00", "previous_submissions": made}

    held = gradescope.cooled_down(config, at(10, [(0, judged)]))
    assert held["score"] == 1.0 and held["extra_data"]["judged"] is False
    assert held["extra_data"]["last_judged_at"].startswith("2026-03-01T10:00:00")
    again = gradescope.cooled_down(config, at(12, [(0, None), (10, held)]))
    assert again is not None and again["score"] == 1.0, "the held 10:10 submission does not restart judging"
    assert again["output"].count("Not judged") == 1 and again["output"].endswith("1/2 hidden cases")
    assert "in 18 minute(s)" in again["output"]
    assert gradescope.cooled_down(config, at(31, [(0, None), (10, held), (12, again)])) is None, "30 min after 10:00"
    assert gradescope.cooled_down(config, at(12, [(0, None), (10, None)])) is None, "no results: judge it"
    assert gradescope.cooled_down(Export("gradescope", config.problems), at(5, [(0, judged)])) is None, "no cooldown"
    assert gradescope.cooled_down(config, {"created_at": "yesterday"}) is None


def test_a_wrong_file_name_is_named(tmp_path):
    for name in ("solution.txt", "solution.PY"):
        folder = tmp_path / name.replace(".", "-")
        submit(folder.parent, folder.name, REFERENCE_SOURCE, name)
        reason = locate(folder, SLUG, True)[1]
        assert reason.startswith(f"no .py file was submitted; found {name} instead"), reason


def test_locate_takes_the_only_file_or_the_named_one(tmp_path):
    assert locate(tmp_path / "missing", SLUG, True)[1].startswith("no submission was found")
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "x.py").write_text("")
    assert locate(tmp_path, SLUG, True) == (tmp_path / "deep" / "x.py", None)
    (tmp_path / "solution.py").write_text("")
    assert locate(tmp_path, SLUG, True) == (tmp_path / "solution.py", None)
    assert locate(tmp_path, SLUG, False)[1].startswith(f"no file named {SLUG}.py")
    (tmp_path / f"{SLUG}.py").write_text("")
    assert locate(tmp_path, SLUG, False) == (tmp_path / f"{SLUG}.py", None)


# -- PrairieLearn ---------------------------------------------------------------------------------------------


def test_prairielearn_questions_and_grader(toy_root, tmp_path):
    grader = export(toy_root, tmp_path, "prairielearn", "--image", "example/torch-judge:1", "--timeout", "90")
    question = grader.parent / "questions" / SLUG
    info = valid(json.loads((question / "info.json").read_text()), "prairielearn-question-info")
    assert info["uuid"] == prairielearn.question_uuid(SLUG) and info["gradingMethod"] == "External"
    options = info["externalGradingOptions"]
    assert options == {"enabled": True, "image": "example/torch-judge:1", "timeout": 90, "enableNetworking": False,
                       "entrypoint": ["/opt/torch-judge/source/grade", SLUG]}
    html = (question / "question.html").read_text()
    assert '<pl-file-editor file-name="solution.py"' in html and 'source-file-name="starter.py"' in html
    assert "<pl-external-grader-results>" in html
    assert "compute_activation_stats" in html and "{{" not in html
    assert (question / "starter.py").read_bytes() == (toy_root / "problems" / SLUG / "starter.py").read_bytes()
    assert "FROM --platform=linux/amd64" in (grader / "Dockerfile").read_text()
    assert os.access(grader / "grade", os.X_OK) and os.access(grader / "setup.sh", os.X_OK)
    second = export(toy_root, tmp_path / "again", "prairielearn")
    assert json.loads((second.parent / "questions" / SLUG / "info.json").read_text())["uuid"] == info["uuid"]


def test_prairielearn_results(toy_root, tmp_path):
    grader = export(toy_root, tmp_path, "prairielearn")
    root = tmp_path / "grade"
    submit(root, "student", ONE_HIDDEN_WRONG, "solution.py")
    results = valid(autograde(toy_root, grader, root, "prairielearn", "--problem", SLUG), "prairielearn-results")
    assert results["gradable"] is True and results["score"] == 0.5
    assert [(t["points"], t["max_points"]) for t in results["tests"]] == [(0.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    assert len(json.dumps(results)) < prairielearn.LIMIT_BYTES
    (root / "student" / "solution.py").write_text("class Solution:\n    def broken(self:\n")
    broken = valid(autograde(toy_root, grader, root, "prairielearn"), "prairielearn-results")
    assert broken["gradable"] is False and broken["format_errors"][0].startswith("SyntaxError")
    (root / "student" / "solution.py").write_text('raise RuntimeError("no\\r\\x1b[2J\\u202e\\u034f\\ufe00 solution")\n')
    failed = valid(autograde(toy_root, grader, root, "prairielearn"), "prairielearn-results")
    shown = failed["format_errors"][0]
    assert failed["gradable"] is False and shown.startswith("RuntimeError: no") and not CONTROL.search(shown)


def test_an_autograder_of_several_problems_wants_one_named_file_each(toy_root, tmp_path):
    zipped = tmp_path / "two.zip"
    made = run_judge(["export", "gradescope", SLUG, "dead-relu-detector", "--out", str(zipped)], toy_root)
    assert made.returncode == 0, made.stderr
    source = tmp_path / "two"
    with zipfile.ZipFile(zipped) as archive:
        archive.extractall(source)
    root = tmp_path / "autograder"
    submit(root, "submission", ONE_HIDDEN_WRONG, f"{SLUG}.py")
    submit(root, "submission", REFERENCE_SOURCE, "notes.py")  # not named after a problem: not judged
    results = valid(autograde(toy_root, source, root, "gradescope"), "gradescope-results")
    ours = [t for t in results["tests"] if SLUG in t["tags"]]
    other = [t for t in results["tests"] if "dead-relu-detector" in t["tags"]]
    assert [t["number"] for t in ours] == ["1.1", "1.2", "1.3"] and ours[0]["name"].startswith(f"{SLUG}: ")
    assert sum(t["score"] for t in ours) == results["score"] == 1.0
    assert other and {t["extra_data"]["verdict"] for t in other} == {"compile_error"}
    assert "no file named dead-relu-detector.py was submitted" in results["output"]


def test_the_judges_own_failure_is_never_the_students(tmp_path):
    from judge.package.problem import find_problem
    from judge.pipeline import Submitted, failure_report

    report = failure_report(find_problem(SLUG), Submitted(tmp_path / "x.py", b""), "submit", "cpu", "RuntimeError: disk full")
    exported = Exported(SLUG, 25.0)
    pl = valid(prairielearn.results(exported, report), "prairielearn-results")
    assert pl["gradable"] is False and pl["format_errors"] == ["RuntimeError: disk full"]
    gs = valid(gradescope.results(Export("gradescope", (exported,)), [(exported, report)]), "gradescope-results")
    assert gs["score"] == 0.0 and "The judge failed (not your fault): RuntimeError: disk full" in gs["output"]
