"""Where a learner's own data (the attempt history) lives.

``$JUDGE_HOME`` when set; otherwise the platform's user-data folder: ``$XDG_DATA_HOME/torch-judge`` (default
``~/.local/share/torch-judge``) on Linux and other Unix systems, ``~/Library/Application Support/torch-judge``
on macOS, ``%LOCALAPPDATA%\\torch-judge`` on Windows.
"""

from __future__ import annotations

from judge.places import APP, data_home  # noqa: F401 -- defined below every layer, see there
