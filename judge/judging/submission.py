"""A submission's bytes as the judge takes them: read once, and refused in one line when they cannot be Python
source. What every submission to a problem is judged with is :mod:`judge.judging.plan`."""

from __future__ import annotations

from pathlib import Path

from judge.errors import BadInput
from judge.judging.intake import read_file
from judge.messages import Said


def read_submission(path: Path, *, beneath: Path | None = None, follow: bool = True) -> bytes:
    """The submission's bytes, read once (:func:`judge.judging.intake.read_file`: ``follow`` on the command line,
    ``beneath`` the class folder), or a :class:`BadInput` saying in one line why they cannot be judged."""
    return check_python(path, read_file(path, beneath=beneath, follow=follow))


def check_python(path: Path, data: bytes) -> bytes:
    """``data``, the bytes read from ``path``, if they can be Python source; else a :class:`BadInput`."""
    if path.suffix != ".py":
        raise BadInput("file_not_python", path=path, reason=Said("not_python_suffix"))
    if b"\0" in data:
        raise BadInput("file_not_python", path=path, reason=Said("not_python_binary"))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput("file_not_python", path=path, reason=Said("not_python_encoding")) from None
    return data
