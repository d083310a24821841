"""Where the judge keeps its own files on this machine: the learner's data and the calibration cache.

One place, below every layer, because two layers need it: the front ends and the judging read and write these
folders, and the worker layer keeps every worker out of them (:mod:`judge.worker.landlock`).

* data (the attempt history): ``$JUDGE_HOME`` when set; otherwise the platform's user-data folder:
  ``$XDG_DATA_HOME/torch-judge`` (default ``~/.local/share/torch-judge``) on Linux and other Unix systems,
  ``~/Library/Application Support/torch-judge`` on macOS, ``%LOCALAPPDATA%\\torch-judge`` on Windows;
* cache (calibrated time limits): ``$JUDGE_CACHE``
  (default ``$XDG_CACHE_HOME/torch-judge`` or ``~/.cache/torch-judge``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from judge.settings import CACHE, HOME

APP = "torch-judge"


def data_home() -> Path:
    if HOME.is_set():
        return HOME.path()
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local")) / APP
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / APP


def cache_dir() -> Path:
    if CACHE.is_set():
        return CACHE.path()
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / APP
