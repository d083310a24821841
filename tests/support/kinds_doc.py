"""The examples of ``docs/kinds.md``: each section, each kind it documents, and the objects of its first example."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.support.cli import REPO

DOCS = REPO / "docs" / "kinds.md"


def documented() -> dict[str, dict[str, dict[str, Any]]]:
    """``{section: {kind: objects of its first example}}``, read from docs/kinds.md."""
    found: dict[str, dict[str, Any]] = {}
    section = kind = None
    lines = iter(DOCS.read_text(encoding="utf-8").splitlines())
    for line in lines:
        if line.startswith("## "):
            section = line[3:].strip()
            found.setdefault(section, {})
        elif match := re.fullmatch(r"### `(\w+)`", line):
            kind = match.group(1)
        elif line == "```json" and kind is not None:
            block = []
            for inner in lines:
                if inner == "```":
                    break
                block.append(inner)
            found[section][kind] = json.loads("\n".join(block))
            kind = None
    return found


DOCUMENTED = documented()
EXAMPLES = [(section, kind, objects) for section, table in DOCUMENTED.items() for kind, objects in table.items()]
