"""No public artefact of an export holds a hidden value or the reference.

PrairieLearn must pull the grader image from a public registry, so everything the image is built from (the
``grader/`` folder, the Dockerfile's context, wheels unpacked) and everything its build leaves in it (the
calibration ``setup.sh`` writes) is public; the hidden cases and the reference travel in each question's ``tests/``
folder, private to the course and mounted at ``/grade/tests`` only while grading. The tests look, in every public
file, for every hidden case file, its id and title, every expected value it holds (as JSON and every non-trivial
number in it, as written and as a statement or report would round it) and every line of the reference that the
starter does not have: in the toy's export, in its image once calibrated, and in an export of every bundled problem.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any, Iterator

from judge.package.problem import available, load_problem
from tests.support.cli import REPO, SLUG, judge_env, run_judge
from tests.support.platforms import ONE_HIDDEN_WRONG, autograde, image_sources, submit, valid


def _numbers(value: Any) -> Iterator[float]:
    """Every number in ``value`` that is no round figure (0.0, 1.0, 0.5 would be found anywhere)."""
    if isinstance(value, float) and len(repr(value)) >= 6:
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _numbers(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)


def _written(number: float) -> set[str]:
    """``number`` as JSON writes it and as a statement or a report would round it; only forms of six characters
    or more, which no unrelated text holds by chance."""
    forms = {repr(number), f"{number:.4f}", f"{number:.4g}", f"{number:.6g}", f"{number:.3e}"}
    return {form for form in forms if len(form.lstrip("-")) >= 6}


def secrets(root: Path, slug: str) -> dict[str, bytes]:
    """What no public artefact of ``slug`` (under ``root``) may hold, each with a name for the failure message."""
    cases = root / "problems" / slug / "cases"
    public = [json.loads(case.read_text()) for case in cases.glob("sample/*.json")]
    public.append(load_problem(root / "problems" / slug).constants)
    shown = {form for value in public for n in _numbers(value) for form in _written(n)}
    # a value a sample case (input or expected) or one of the statement's constants shows is public anyway
    found: dict[str, bytes] = {}
    for case in sorted(cases.glob("hidden/*.json")):
        raw = json.loads(case.read_text())
        found[f"{slug}: case file {case.name}"] = case.read_bytes()
        found[f"{slug}: the id of hidden/{case.stem}"] = case.stem.encode()
        found[f"{slug}: the title of hidden/{case.stem}"] = raw["title"].encode()
        for separators in ((", ", ": "), (",", ":")):  # as JSON, however it is spaced (the case file keeps its own)
            found[f"{slug}: {case.name}: expected as JSON {separators}"] = \
                json.dumps(raw["expected"], separators=separators).encode()
        found.update({f"{slug}: {case.name}: {form}": form.encode() for number in _numbers(raw["expected"])
                      for form in _written(number) if form not in shown})
    starter = (root / "problems" / slug / "starter.py").read_text()
    reference = (root / "solutions" / f"{slug}.py").read_text()
    idioms = {line for other in (root / "solutions").glob("*.py") if other.stem != slug
              for line in map(str.strip, other.read_text().splitlines())}  # a line two references share
    found[f"{slug}: the reference"] = reference.encode()
    found.update({f"{slug}: reference line {line!r}": line.encode() for line in map(str.strip, reference.splitlines())
                  if len(line) >= 30 and not line.startswith("#") and line not in starter and line not in idioms})
    return found


def contents(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder``, and every member of every zip or wheel there, by name."""
    found = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = found[str(path.relative_to(folder))] = path.read_bytes()
        if path.suffix in (".zip", ".whl"):
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                found.update({f"{path.name}!{name}": archive.read(name) for name in archive.namelist()})
    return found


def export_prairielearn(toy_root: Path, tmp_path: Path) -> Path:
    out = tmp_path / "pl"
    result = run_judge(["export", "prairielearn", SLUG, "--out", str(out)], toy_root)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def leaks(public: dict[str, bytes], secret_values: dict[str, bytes]) -> list[str]:
    return [f"{what} is in {name}" for what, secret in secret_values.items()
            for name, data in public.items() if secret in data]


def public_question(question: Path) -> dict[str, bytes]:
    return {name: data for name, data in contents(question).items() if not name.startswith("tests/")}


def test_the_public_grader_image_holds_no_hidden_value_and_no_reference(toy_root, tmp_path):
    out = export_prairielearn(toy_root, tmp_path)
    public = contents(out / "grader")
    assert any(name.endswith(".whl!judge/worker/main.py") for name in public), "the image context holds the judge"
    assert not any("judge_bundle/problems" in name or "judge_bundle/solutions" in name for name in public)
    hidden = secrets(toy_root, SLUG)
    assert len(hidden) > 10, "the toy has hidden cases with ids, titles and values, and a reference with a body"
    question = out / "questions" / SLUG
    assert leaks(public, hidden) == [] and leaks(public_question(question), hidden) == []
    private = contents(question / "tests")
    for what, secret in hidden.items():
        if any(kind in what for kind in ("case file", "the id", "the title", "reference")):
            assert any(secret in data or secret in name.encode() for name, data in private.items()), \
                f"{what} must travel in the question's tests/"


def test_the_image_takes_only_what_the_export_wrote(toy_root, tmp_path):
    """A file left in ``grader/`` (an instructor's, or an older export's wheel with the problems in it) stays out
    of the image: the Dockerfile copies the export's files by name (``COPY .`` took them all)."""
    out = tmp_path / "pl"
    hidden = next((toy_root / "problems" / SLUG / "cases" / "hidden").glob("*.json"))
    (out / "grader" / "statements").mkdir(parents=True)
    for stray in ("notes-hidden.json", "statements/old.json", "torch_diagnostics_judge-0.0.9-py3-none-any.whl"):
        shutil.copy(hidden, out / "grader" / stray)
    export_prairielearn(toy_root, tmp_path)
    written = {str(path.relative_to(out / "grader")) for path in (out / "grader").rglob("*") if path.is_file()}
    copied = image_sources(out / "grader")
    assert set(copied) == written - {"Dockerfile", "notes-hidden.json", "statements/old.json",
                                     "torch_diagnostics_judge-0.0.9-py3-none-any.whl"}
    assert {"setup.sh", "grade", "export.json", f"statements/{SLUG}.md"} <= set(copied)
    assert all(copied[name] == out / "grader" / name for name in copied)  # each lands where setup.sh looks
    image = {name: path.read_bytes() for name, path in copied.items()}
    assert leaks(image, secrets(toy_root, SLUG)) == []


def test_the_calibration_the_image_keeps_names_no_hidden_case(toy_root, tmp_path):
    """The image's build runs ``judge autograde prairielearn --setup`` with the questions bound in, as
    ``setup.sh`` does, and keeps its calibration: keyed by case id, that calibration named every hidden case."""
    out = export_prairielearn(toy_root, tmp_path)
    tests = out / "questions" / SLUG / "tests"
    env = {**judge_env(None), "JUDGE_CACHE": str(tmp_path / "calibration"), "JUDGE_CALIBRATION": "pinned",
           "JUDGE_PROBLEMS": str(tests / "problems"), "JUDGE_SOLUTIONS": str(tests / "solutions")}
    result = subprocess.run([sys.executable, "-m", "judge", "autograde", "prairielearn", "--config",
                             str(out / "grader" / "export.json"), "--setup"], capture_output=True, text=True,
                            env=env, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    calibration = contents(tmp_path / "calibration")
    assert len(calibration) == 1 and all(len(json.loads(data)) == 3 for data in calibration.values())
    assert leaks(calibration, secrets(toy_root, SLUG)) == []
    assert not [name for name, data in calibration.items() if b"hidden" in data or b"sample" in data]


def test_no_bundled_problem_leaves_a_hidden_value_in_its_public_export(tmp_path):
    """Every bundled problem exported at once: its statement, starter and question page are public. A value a
    sample case shows counts as public, so a sample that repeats a hidden case's values (an attack found one,
    since changed) is not what this test can see."""
    slugs = available()
    out = tmp_path / "pl"
    result = run_judge(["export", "prairielearn", *slugs, "--out", str(out)])
    assert result.returncode == 0, result.stdout + result.stderr
    grader = contents(out / "grader")
    shared = {name: data for name, data in grader.items() if not name.startswith("statements/")}
    found = []
    for slug in slugs:  # each against its own statement (another's may hold the same figure by chance)
        public = {**shared, **{name: data for name, data in grader.items() if name.startswith(f"statements/{slug}.")},
                  **{f"questions/{slug}/{name}": data for name, data in public_question(out / "questions" / slug).items()}}
        hidden = secrets(REPO, slug)
        assert len(hidden) > 10, slug
        found += leaks(public, hidden)
    assert found == []


def test_the_grader_judges_from_the_questions_tests_folder(toy_root, tmp_path):
    """``judge autograde prairielearn`` with no problem on its search path finds it in ``/grade/tests``."""
    out = export_prairielearn(toy_root, tmp_path)
    root = tmp_path / "grade"
    shutil.copytree(out / "questions" / SLUG / "tests", root / "tests")
    submit(root, "student", ONE_HIDDEN_WRONG, "solution.py")
    results = valid(autograde(None, out / "grader", root, "prairielearn", "--problem", SLUG),
                    "prairielearn-results")
    assert results["gradable"] is True and results["score"] == 0.5
