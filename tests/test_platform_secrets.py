"""No public artefact of an export holds a hidden value or the reference (issue 31 §2).

PrairieLearn must pull the grader image from a public registry, so everything the image is built from (the
``grader/`` folder, the Dockerfile's context, wheels unpacked) is public; the hidden cases and the reference travel
in each question's ``tests/`` folder, private to the course and mounted at ``/grade/tests`` only while grading. The
test looks for every hidden case file, every expected value it holds (as JSON and every non-trivial number in
it) and every line of the reference that the starter does not have, in every public file, and finds them all in
the private part.
"""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path
from typing import Any, Iterator

from tests.support.cli import SLUG, run_judge
from tests.support.platforms import ONE_HIDDEN_WRONG, autograde, submit, valid


def _numbers(value: Any) -> Iterator[str]:
    if isinstance(value, float) and len(repr(value)) >= 6:  # 0.0, 1.0, 0.5 would be found anywhere
        yield repr(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _numbers(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)


def secrets(toy_root: Path) -> dict[str, bytes]:
    """What no public artefact may hold, each with a name for the failure message."""
    cases = toy_root / "problems" / SLUG / "cases"
    shown = {n for case in cases.glob("sample/*.json") for n in _numbers(json.loads(case.read_text())["expected"])}
    found: dict[str, bytes] = {}
    for case in sorted(cases.glob("hidden/*.json")):
        found[f"case file {case.name}"] = case.read_bytes()
        expected = json.loads(case.read_text())["expected"]
        for separators in ((", ", ": "), (",", ":")):  # as JSON, however it is spaced (the case file keeps its own)
            found[f"{case.name}: expected as JSON {separators}"] = json.dumps(expected, separators=separators).encode()
        found.update({f"{case.name}: {number}": number.encode() for number in _numbers(expected)
                      if number not in shown})  # a value a sample case shows too is public anyway
    starter = (toy_root / "problems" / SLUG / "starter.py").read_text()
    reference = (toy_root / "solutions" / f"{SLUG}.py").read_text()
    found["the reference"] = reference.encode()
    found.update({f"reference line {line!r}": line.encode() for line in map(str.strip, reference.splitlines())
                  if len(line) >= 30 and not line.startswith("#") and line not in starter})
    assert len(found) > 6, "the toy has hidden cases with values and a reference with a body"
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


def test_the_public_grader_image_holds_no_hidden_value_and_no_reference(toy_root, tmp_path):
    out = export_prairielearn(toy_root, tmp_path)
    public = contents(out / "grader")
    assert any(name.endswith(".whl!judge/worker/main.py") for name in public), "the image context holds the judge"
    assert not any("judge_bundle/problems" in name or "judge_bundle/solutions" in name for name in public)
    for what, secret in secrets(toy_root).items():
        leaked = [name for name, data in public.items() if secret in data]
        assert not leaked, f"{what} is in the public image's inputs: {leaked}"
    question = out / "questions" / SLUG
    public_question = {name: data for name, data in contents(question).items() if not name.startswith("tests/")}
    private = contents(question / "tests")
    for what, secret in secrets(toy_root).items():
        assert not [name for name, data in public_question.items() if secret in data], what
        if "as JSON" not in what:
            assert any(secret in data for data in private.values()), f"{what} must travel in the question's tests/"


def test_the_grader_judges_from_the_questions_tests_folder(toy_root, tmp_path):
    """``judge autograde prairielearn`` with no problem on its search path finds it in ``/grade/tests``."""
    out = export_prairielearn(toy_root, tmp_path)
    root = tmp_path / "grade"
    shutil.copytree(out / "questions" / SLUG / "tests", root / "tests")
    submit(root, "student", ONE_HIDDEN_WRONG, "solution.py")
    results = valid(autograde(None, out / "grader", root, "prairielearn", "--problem", SLUG),
                    "prairielearn-results")
    assert results["gradable"] is True and results["score"] == 0.5
