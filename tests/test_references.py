"""No file of the repository points outside it: its facts are stated in its own docs."""

from __future__ import annotations

import re
import subprocess

from tests.support.cli import REPO

OUTSIDE = re.compile(r"\bshared/(?:research|STYLE)|/work/")
"""the team's notes, kept outside the repository, and the machine's own folders"""
SELF = REPO / "tests" / "test_references.py"
"""which names them, to find them"""


def test_no_tracked_file_points_outside_the_repository():
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    pointing = []
    for name in filter(None, tracked.decode().split("\0")):
        path = REPO / name
        if path.is_file() and not path.is_symlink() and path != SELF:
            text = path.read_bytes().decode("utf-8", "replace")
            pointing += [f"{name}: {m[0]}" for m in OUTSIDE.finditer(text)]
    assert pointing == []
