"""No file of the repository points outside it: its facts are stated in its own docs."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.support.cli import REPO

NOTES = r"\bshared/(?:research|STYLE)|/work/"
"""the team's notes, kept outside the repository, and the machine's own folders"""
TRACKER = r"(?i:\bissues?\s+\d+(?:\s*§\s*\d+)?|\bissue's\b|\brt\d+[a-z]?\b|\bcatalogue\s+(?:§|K\d))"
"""the project's issue tracker ("issue 29 §4", "the issue's example", across a line break too), the ids of
red-team rounds ("rt29q"), and sections of the problem catalogue the bundled problems were specified from
("catalogue §7.8", kept with the team's notes): a reader of the repository can follow none of them. ``\\brt\\d``
needs a digit right after a whole-word "rt", so ``rtol``, ``rtl``, ``rt_sigqueueinfo`` and CodeMirror's ``rt``
variable are not hits, nor is a hex digest (no "r" or "t" in one). "issue #2901" in the vendored CodeMirror is
its own tracker's, not ours, and is not a hit either"""
OUTSIDE = re.compile(f"(?P<notes>{NOTES})|(?P<tracker>{TRACKER})")
SELF = REPO / "tests" / "test_references.py"
"""which names them, to find them"""


@pytest.mark.parametrize("text", ["issue 29", "Issue 30 §3", "(issue\n    29.3)", "issues 29 and 30",
                                  "the issue's target", "red team rt29q", "(rt8)", "RT31b", "(catalogue §7.17)",
                                  "catalogue K9", "shared/research/x", "/work/main"])
def test_outside_finds(text):
    assert OUTSIDE.search(text)


@pytest.mark.parametrize("text", ["rtol=1e-5", "torch.testing.assert_close(a, b, rtol=0)", "rt_sigqueueinfo",
                                  "dir=rtl", "var rt = line.indexOf", "3f9a0rt7", "sha256 9e2c7d41b0a8", "an issue",
                                  "See issue #2901", "tissue 3", "shared/problems"])
def test_outside_passes(text):
    assert not OUTSIDE.search(text)


def test_no_tracked_file_points_outside_the_repository():
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    pointing = []
    for name in filter(None, tracked.decode().split("\0")):
        path = REPO / name
        if path.is_file() and not path.is_symlink() and path != SELF:
            text = path.read_bytes().decode("utf-8", "replace")
            pointing += [f"{name}: {m[0]}" for m in OUTSIDE.finditer(text)]
    assert pointing == []
