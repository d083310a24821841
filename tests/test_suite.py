"""The suite's own house rules: slow tests are opted into with ``--runslow`` (never through ``addopts``, which a
nested pytest would inherit), the README's test command is what CI runs first, and no test module imports another
(shared constants and helpers live in tests/support/, fixtures in tests/conftest.py)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.support.adversarial import MACHINE_WIDE
from tests.support.cli import REPO

TESTS = REPO / "tests"


def _ci_steps() -> list[str]:
    return [line for line in (REPO / ".ci" / "run").read_text().splitlines() if " -m pytest" in line]


def test_slow_tests_are_opted_into_never_deselected_by_addopts():
    options = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "addopts" not in options, "addopts leaks into every nested pytest; use an option in tests/conftest.py"
    first, slow = _ci_steps()
    assert "--runslow -m slow" in slow and "-m" not in first.split("pytest", 1)[1]


def test_a_tests_timeout_covers_its_own_work_not_the_sessions_shared_set_up():
    """A session fixture (a toy problem generated and calibrated) is paid by whichever test needs it first: at a
    load of 30 on two cores its set-up alone ran past the 300 s that test's timeout allows."""
    options = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert options["timeout_func_only"] is True


def test_the_readme_test_command_is_what_ci_runs_first():
    readme = (REPO / "README.md").read_text()
    command = re.search(r"Install and run the tests.*?```sh\n(.*?)\n```", readme, re.S)[1]
    assert command == _ci_steps()[0]


@pytest.mark.slow
def test_a_slow_test_runs_only_with_runslow():
    """Run by the test below in a nested pytest: skipped there without ``--runslow``, passed with it."""


@pytest.mark.parametrize("options, outcome", [([], "1 skipped"), (["--runslow"], "1 passed")])
def test_runslow_alone_decides_whether_slow_tests_run(options, outcome):
    nested = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options,
                             f"{__file__}::test_a_slow_test_runs_only_with_runslow"],
                            capture_output=True, text=True, cwd=REPO, timeout=300)
    assert outcome in nested.stdout, nested.stdout[-2000:] + nested.stderr[-2000:]


def _imported(path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return found


def _is_test_module(module: str) -> bool:
    """Anything under tests/ but its support package: a test module, the conftest, or ``tests`` itself."""
    return (module == "tests" or module.startswith("tests.")) and module != "tests.support" \
        and not module.startswith("tests.support.")


def test_no_test_module_imports_another_or_the_conftest():
    offenders = {str(path.relative_to(REPO)): module for path in sorted(TESTS.rglob("test_*.py"))
                 for module in _imported(path)
                 if _is_test_module(module)}
    assert not offenders, ("shared helpers belong in tests/support/ and fixtures in tests/conftest.py; "
                           f"import from tests.support (e.g. tests.support.cli for REPO, SLUG, judge_env): {offenders}")


def test_support_modules_import_no_test_module():
    offenders = {str(path.relative_to(REPO)): module for path in sorted((TESTS / "support").glob("*.py"))
                 for module in _imported(path) if _is_test_module(module)}
    assert not offenders, offenders


MACHINE_WIDE_CHECKS = re.compile(r"\b(?:arena|ipc_objects|judge_attack|grade_class|adv-canary|container_profile)\b")
"""what reads or leaves traces machine-wide: the adversarial arena and its checks, System V objects, canaries in
the shared folders, the emulated container"""


def test_both_ci_steps_run_in_parallel_with_the_machine_wide_modules_kept_to_one_worker():
    """pytest-xdist shares the two cores between tests that mostly wait on their judges; ``--dist loadgroup`` keeps
    every module whose checks read the whole machine in one group (tests/support/adversarial.MACHINE_WIDE), run one
    test at a time, so one attack's canary or IPC object is never blamed on another judged beside it."""
    for step in _ci_steps():
        assert "-n auto --dist loadgroup" in step, step
    reading = {path.stem for path in TESTS.rglob("test_*.py") if MACHINE_WIDE_CHECKS.search(path.read_text())}
    assert reading - {"test_suite"} <= MACHINE_WIDE, f"add to MACHINE_WIDE: {sorted(reading - MACHINE_WIDE)}"


def test_each_module_is_one_group_the_machine_wide_ones_one_together_and_xdist_honours_it(request):
    """The marks must be on the items before pytest-xdist reads them (its ``--dist loadgroup`` hook suffixes each
    grouped test's id with ``@group``): marked too late, the group was silently ignored, the two workers ran
    attacks side by side, and one's relay file failed the other. A module split over both workers failed CI too: a
    test that relied on an earlier one's login met a fresh site and browser of its own."""
    grouping = getattr(request.config.option, "loadgroup", False)  # set on xdist's workers alone (its remote.py)
    for item in request.session.items:
        module = Path(item.nodeid.split("::")[0]).stem
        group = "machine-wide" if module in MACHINE_WIDE else module
        assert [mark.args for mark in item.iter_markers("xdist_group")] == [(group,)], item
        if grouping:
            assert item.nodeid.endswith(f"@{group}"), item.nodeid
