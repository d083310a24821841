"""The repository, the problem most tests judge, and the real command line run as a user would run it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SLUG = "training-diagnostics"
REFERENCE_SOURCE = (REPO / "solutions" / f"{SLUG}.py").read_text()


def default_sigint() -> None:
    """``preexec_fn`` for a judge a test stops with SIGINT: SIGINT acts as a terminal's would, even where the tests
    were started in the background (which ignores SIGINT, and a child keeps an ignored signal ignored: the judge
    then never stopped, and tests/test_grade_interrupt.py, test_serve.py and test_watch.py each failed that way)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def judge_env(root: Path | None) -> dict[str, str]:
    """This environment, pointed at the problems under ``root`` when one is given. The calibration cache stays the
    test session's own (tests/conftest.py): calibrations are keyed by the reference and the cases, so two copies
    of one toy problem share theirs and the session calibrates each content once."""
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    if root is not None:
        env["JUDGE_PROBLEMS"] = str(root / "problems")
    return env


def run_judge(args: list[str], root: Path | None = None, timeout: float = 600,
              cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run the real command line, as a user would."""
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True, text=True,
                          env=judge_env(root), timeout=timeout, cwd=cwd)


def judge_json(args: list[str], root: Path | None = None) -> tuple[int, dict]:
    result = run_judge([*args, "--format", "json"], root)
    assert result.stdout, result.stderr
    return result.returncode, json.loads(result.stdout)
