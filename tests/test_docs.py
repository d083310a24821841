"""The README and the pages of ``docs/`` link only to what exists in the repository."""

import re

import pytest

from tests.support.cli import REPO

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)
"""fenced blocks and code spans, whose brackets are Python, not links"""


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_resolves(page):
    for target in LINK.findall(CODE.sub("", page.read_text(encoding="utf-8"))):
        if "://" in target:
            continue
        assert (page.parent / target).exists(), f"{page.name} links to {target}, which is not in the repository"


def test_the_readme_is_a_front_door():
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 250
