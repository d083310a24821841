"""One settings module: every ``JUDGE_*`` variable is defined, read and documented in one place."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from judge import doctor, settings
from judge.errors import BadInput
from judge.settings import SETTINGS, Setting
from judge.worker.confinement import LEVELS
from tests.support.cli import REPO

NAME = re.compile(r"JUDGE_[A-Z_]+")
DOC = REPO / "docs" / "configuration.md"


def _strings() -> list[tuple[str, str]]:
    """Every string in the package's code (docstrings and messages among them), with its module's path."""
    return [(str(path.relative_to(REPO)), node.value) for path in sorted((REPO / "judge").rglob("*.py"))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def test_no_module_but_settings_names_a_variable():
    """A variable's name as a whole string (what ``os.environ`` is indexed with) is written in settings alone."""
    named = [(path, text) for path, text in _strings() if NAME.fullmatch(text)]
    assert sorted({path for path, _ in named}) == ["judge/settings.py"]
    assert sorted(text for _, text in named) == sorted(s.name for s in SETTINGS)


def test_every_variable_the_package_mentions_is_a_setting():
    assert {n for _, text in _strings() for n in NAME.findall(text)} <= {s.name for s in SETTINGS}


def table() -> str:
    """The docs' table of settings, as the module defines them."""
    rows = ["| variable | when not set | what it does |", "|---|---|---|"]
    rows += [f"| `{s.name}` | {s.default} | {s.meaning} |" for s in SETTINGS]
    return "\n".join(rows) + "\n"


def test_the_docs_list_every_setting_as_the_module_defines_it():
    text = DOC.read_text(encoding="utf-8")
    assert table() in text, "docs/configuration.md's table of settings differs from judge/settings.py"
    assert set(NAME.findall(text)) == {s.name for s in SETTINGS}  # and no variable the judge does not read


def test_the_level_cap_offers_the_levels_there_are():
    assert sorted(settings.MAX_LEVEL.choices) == sorted(LEVELS) and settings.MAX_LEVEL.choices[0] == max(LEVELS)


def test_a_setting_reads_its_variable_and_refuses_a_bad_choice_in_one_line(monkeypatch):
    toy = Setting("JUDGE_TOY", "a", "for this test", ("a", "b"))
    monkeypatch.setenv("JUDGE_TOY", "")
    assert not toy.is_set() and toy.choice() == "a"  # empty is not set
    monkeypatch.setenv("JUDGE_TOY", "b")
    assert toy.is_set() and toy.choice() == "b" and toy.raw({"JUDGE_TOY": "a"}) == "a"
    monkeypatch.setenv("JUDGE_TOY", "c")
    with pytest.raises(BadInput) as refused:
        toy.choice()
    assert str(refused.value) == "JUDGE_TOY is 'c'; it must be one of a, b (docs/configuration.md)"
    monkeypatch.setenv("JUDGE_TOY", os.pathsep.join(["/x", "", "y"]))
    assert toy.folders() == [Path("/x"), Path("y")]


def test_doctor_shows_every_setting_with_its_value_or_its_default(monkeypatch):
    monkeypatch.setenv("JUDGE_CALIBRATION", "pinned")
    monkeypatch.delenv("JUDGE_CGROUPS", raising=False)
    lines = doctor.settings()
    assert len(lines) == 1 + len(SETTINGS)
    assert "  JUDGE_CALIBRATION = pinned  (set)" in lines
    assert f"  JUDGE_CGROUPS  (not set: {settings.CGROUPS.default})" in lines
