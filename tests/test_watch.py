"""``judge watch``: each save is judged again through the warm worker, and the new verdict is shown."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
import time

from tests.support.cli import REFERENCE_SOURCE, SLUG, default_sigint, judge_env

WRONG = REFERENCE_SOURCE.replace("'std': _r(x.std())", "'std': _r(x.std(correction=0))")


def _lines(stream, into: queue.Queue) -> None:
    for line in stream:
        into.put(line)


def _next_verdict(lines: queue.Queue, timeout: float = 120) -> str:
    """The next verdict shown, which must follow a "judging" line: a save is said at once, before its result, so a
    verdict on screen never stands for a file that has changed since."""
    deadline = time.monotonic() + timeout
    judging = False
    while time.monotonic() < deadline:
        line = lines.get(timeout=deadline - time.monotonic())
        judging = judging or line.startswith("judging ")
        if line.startswith("verdict: "):
            assert judging, "a verdict came with no 'judging' line before it"
            return line.split()[1]
    raise AssertionError("no verdict")


def test_watch_judges_every_save_and_shows_the_new_verdict(toy_root, tmp_path):
    solution = tmp_path / "mine.py"
    solution.write_text(WRONG)
    watcher = subprocess.Popen([sys.executable, "-m", "judge", "watch", SLUG, str(solution), "--no-color"],
                               env=judge_env(toy_root), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=default_sigint)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(watcher.stdout, lines), daemon=True).start()
    try:
        assert _next_verdict(lines) == "wrong_answer"
        solution.write_text(REFERENCE_SOURCE)
        assert _next_verdict(lines) == "accepted"
        solution.write_text("class Solution:\n    def broken(self:\n")
        assert _next_verdict(lines) == "compile_error"
        solution.unlink()  # an editor saving by renaming: a moment without the file is waited out
        solution.write_text(WRONG)
        assert _next_verdict(lines) == "wrong_answer"
    finally:
        watcher.send_signal(signal.SIGINT)
        _, stderr = watcher.communicate(timeout=60)
    assert watcher.returncode == 0, stderr
