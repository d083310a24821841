"""Where a learner's own data (the attempt history) lives.

``$JUDGE_HOME`` when set; otherwise the platform's user-data folder: ``$XDG_DATA_HOME/torch-judge`` (default
``~/.local/share/torch-judge``) on Linux and other Unix systems, ``~/Library/Application Support/torch-judge``
on macOS, ``%LOCALAPPDATA%\\torch-judge`` on Windows.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP = "torch-judge"


def data_home() -> Path:
    if os.environ.get("JUDGE_HOME"):
        return Path(os.environ["JUDGE_HOME"])
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local")) / APP
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / APP
