"""The suite's fixtures and options. Shared constants and helpers live in tests/support/ (the command line in
``cli``, the toy problem in ``toy``, broken submissions in ``submissions``, the adversarial machinery in
``adversarial``): test modules import from there, never from one another or from here."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

from tests.support.adversarial import calibrated_root, new_arena, remove_arena, xdist_group
from tests.support.toy import MIXED_CASES, TOY_CASES, TOY_MEMORY_MB, build_toy, keep_builds_in


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run the tests marked slow (whole packages judged or regenerated)")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the groups off the items
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """pytest's documented recipe: slow tests are skipped unless ``--runslow`` is given. An option, not ``addopts``,
    so a nested pytest (tests/test_containers.py) inherits nothing it did not ask for. Each module is one xdist group
    (``--dist loadgroup``: the README's test command), run in its own order by one worker, so a test never meets a
    module-scoped fixture that no earlier test of its module prepared; the machine-wide modules share one group."""
    for item in items:
        item.add_marker(pytest.mark.xdist_group(xdist_group(item.module.__name__.rpartition(".")[2])))
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: give --runslow to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def _run_folder(tmp_path_factory) -> Path:
    """A folder every pytest-xdist worker of this run shares: the parent of the workers' own base folders."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session", autouse=True)
def judge_home(tmp_path_factory) -> Iterator[Path]:
    """Every judge the tests start records its attempts here, never in the real user's history, and keeps its
    calibrated reference times in a cache of the test run's own, never in the real user's cache. The run's workers
    share that cache (it is keyed by content and written atomically, as for judges side by side on one machine) and
    the toys they build, so each calibration and each toy's ``judge gen`` is paid once per run."""
    home = tmp_path_factory.mktemp("judge-home")
    shared = _run_folder(tmp_path_factory)
    (shared / "judge-cache").mkdir(exist_ok=True)
    (shared / "toys").mkdir(exist_ok=True)
    keep_builds_in(shared / "toys")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUDGE_HOME", str(home))
        patch.setenv("JUDGE_CACHE", str(shared / "judge-cache"))
        patch.delenv("JUDGE_LANG", raising=False)  # the suite's English is English whatever the developer reads
        yield home


@pytest.fixture(autouse=True)
def keeps_the_test_process_capabilities() -> Iterator[None]:
    """A test that drops pytest's own capabilities (by running a worker's lock-down in process) would silently
    change every later test: as root without CAP_CHOWN, no worker can be given the sandbox uid. Fail that test."""
    from judge.worker import privileges

    before = privileges.capabilities()
    yield
    assert privileges.capabilities() == before, "this test changed the test process's own capabilities"


@pytest.fixture(scope="session")
def toy_root(tmp_path_factory) -> Path:
    """A copy of training-diagnostics with three small cases (expected values generated here).

    A tighter memory limit, so memory bombs reach it long before the CPU-time limit.
    """
    return build_toy(tmp_path_factory.mktemp("toy"), TOY_CASES, TOY_MEMORY_MB)


@pytest.fixture(scope="session")
def mixed_root(tmp_path_factory) -> Path:
    """The toy with :data:`MIXED_CASES`: three cases call both statistics methods, the last one only the second."""
    return build_toy(tmp_path_factory.mktemp("mixed"), MIXED_CASES, TOY_MEMORY_MB)


@pytest.fixture
def write_submission(tmp_path):
    def write(source: str, name: str = "solution.py") -> Path:
        path = tmp_path / name
        path.write_text(source)
        return path
    return write


@pytest.fixture(scope="session")
def adversarial_root(tmp_path_factory) -> Path:
    """The adversarial suite's small problem, calibrated once per session."""
    return calibrated_root(tmp_path_factory.mktemp("adversarial"))


@pytest.fixture
def arena() -> Iterator[Path]:
    """A world-readable folder for one judgement: the submission, another student's, and the judge's TMPDIR."""
    base = new_arena()
    yield base
    remove_arena(base)
