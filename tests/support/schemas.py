"""The published JSON schemas of the platforms' results files (tests/schemas/)."""

from __future__ import annotations

import json

from tests.support.cli import REPO

SCHEMAS = REPO / "tests" / "schemas"


def schema(name: str) -> dict:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text())
