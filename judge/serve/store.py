"""What the site keeps beside the attempt history, under ``<data home>/serve/``.

``drafts/<slug>.py``    the learner's code as last typed (saved as they type, so a reload or crash loses nothing)
``attempts/<slug>/<key>.json``   each attempt judged in the browser: its JSON report and the code judged; the
                        key is made from the history row (time, mode, code hash), so a row finds its report

Every path is built from a slug the caller has checked against the installed problems, and a key that must match
:data:`KEY`: nothing a request sends is used as a path as it is.
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from judge.errors import BadInput
from judge.practice.history import Attempt
from judge.places import data_home
from judge.system_words import os_reason

KEY = re.compile(r"^[0-9]{8}T[0-9]{6}-(run|submit)-[0-9a-f]{12}$")


def _root() -> Path:
    return data_home() / "serve"


def _write(path: Path, text: str) -> None:
    """Replace ``path`` in one step, so a crash mid-write leaves the previous version."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise BadInput("serve_unwritable", path=path, reason=os_reason(exc)) from None


def draft(slug: str) -> str | None:
    try:
        return (_root() / "drafts" / f"{slug}.py").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def save_draft(slug: str, code: str) -> None:
    _write(_root() / "drafts" / f"{slug}.py", code)


def latest_code(slug: str, history: list[Attempt]) -> str | None:
    """What the editor opens on: the draft, unless an attempt of ``history`` (given newest first, from any front end:
    ``judge submit``, a notebook, ``judge watch``) was judged after the draft was last saved; then that attempt's
    code. None when there is neither (the page opens on the starter)."""
    code = draft(slug)
    newest = next((a for a in history if a.code), None)
    if newest is None:
        return code
    try:
        saved = (_root() / "drafts" / f"{slug}.py").stat().st_mtime
    except OSError:
        return newest.code
    return newest.code if datetime.fromisoformat(newest.at).timestamp() > saved or code is None else code


def attempt_key(attempt: Attempt) -> str:
    stamp = re.sub(r"[^0-9T]", "", attempt.at.split("+")[0])
    return f"{stamp}-{attempt.mode}-{attempt.code_sha256[:12]}"


def keep_attempt(attempt: Attempt, report: dict[str, Any], code: str) -> None:
    _write(_root() / "attempts" / attempt.problem / f"{attempt_key(attempt)}.json",
           json.dumps({"report": report, "code": code}))


def kept_attempt(slug: str, key: str) -> dict[str, Any] | None:
    """The report and code kept for one attempt, or None (a bad key, or an attempt judged elsewhere)."""
    if not KEY.match(key):
        return None
    try:
        kept = json.loads((_root() / "attempts" / slug / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return kept if isinstance(kept, dict) and {"report", "code"} <= kept.keys() else None


def kept_keys(slug: str) -> set[str]:
    return {p.stem for p in (_root() / "attempts" / slug).glob("*.json")}
