"""Reading a submission file as untrusted input: the one place the judge reads a submission's bytes.

A class folder is anyone's: a student's entry may be a symbolic link to ``/etc/shadow`` or to a hidden case, a
hard link to the reference solution, a FIFO that never answers, a device (``/dev/zero``), a socket, or a 1 GB
file. Only a regular file with one name, no larger than :data:`MAX_SUBMISSION_BYTES`, is read, and it is read
the way it was listed:

* it is looked at with ``lstat`` first, so nothing that is not a regular file is ever opened;
* it is opened with ``O_NOFOLLOW`` on every component below the class folder (``beneath``), and ``O_NONBLOCK``
  and ``O_NOCTTY`` (a FIFO or a terminal swapped in meanwhile cannot block or become the judge's);
* what was opened is checked with ``fstat``: a regular file, the same inode as listed, one link, within the cap;
* at most the cap plus one byte is read, so a file that grows meanwhile costs no more.

A refusal is a :class:`judge.errors.BadInput` naming the reason in one line; nothing of the file is read then,
so no report can quote what a link points to. On the command line (``follow``) a link the learner gives is
followed: the learner runs the judge with their own rights, so it can only show them what they can read
anyway; the other checks hold there too.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from judge.errors import BadInput
from judge.system_words import os_reason

MAX_SUBMISSION_BYTES = 1 << 20
"""the largest submission read (1 MiB): the longest reference solution is a few kB"""

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_KINDS = ((stat.S_ISDIR, "directory"), (stat.S_ISFIFO, "FIFO (named pipe)"), (stat.S_ISSOCK, "socket"),
          (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "special file")


def _check(path: Path, info: os.stat_result, follow: bool) -> None:
    """Refuse what is not one regular file of an honest size, before and after it is opened."""
    if stat.S_ISLNK(info.st_mode):
        raise BadInput("file_is_link", path=path)
    if stat.S_ISDIR(info.st_mode):
        raise BadInput("file_is_dir", path=path)
    if not stat.S_ISREG(info.st_mode):
        raise BadInput("file_not_regular", path=path, kind=_kind(info.st_mode))
    if info.st_nlink > 1 and not follow:
        raise BadInput("file_hard_linked", path=path, links=info.st_nlink)
    if info.st_size > MAX_SUBMISSION_BYTES:
        raise BadInput("file_too_big", path=path, size=info.st_size, cap=MAX_SUBMISSION_BYTES)


def _open(path: Path, beneath: Path | None, follow: bool) -> int:
    """A descriptor of ``path``, no component below ``beneath`` followed if it is a link (``follow``: the last
    one may be, and none is checked)."""
    if follow or beneath is None:
        return os.open(path, _FLAGS | (0 if follow else os.O_NOFOLLOW))
    parts = path.relative_to(beneath).parts
    fd = os.open(beneath, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in parts[:-1]:
            inner = os.open(part, _DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = inner
        return os.open(parts[-1], _FLAGS | os.O_NOFOLLOW, dir_fd=fd)
    finally:
        os.close(fd)


def read_file(path: Path, *, beneath: Path | None = None, follow: bool = False) -> bytes:
    """The bytes of the submission file at ``path``, read once, or a :class:`BadInput` saying why not.

    ``beneath``: the class folder ``path`` lies in; no component between them may be a link. ``follow``: the
    learner's own file on the command line, whose link (and other names) are followed.
    """
    try:
        listed = os.stat(path) if follow else os.lstat(path)
    except FileNotFoundError:
        raise BadInput("file_missing", path=path) from None
    except OSError as exc:
        raise BadInput("file_unreadable", path=path, reason=os_reason(exc)) from None
    _check(path, listed, follow)
    try:
        fd = _open(path, beneath, follow)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise BadInput("file_is_link", path=path) from None
        raise BadInput("file_unreadable", path=path, reason=os_reason(exc)) from None
    try:
        opened = os.fstat(fd)
        _check(path, opened, follow)
        if (opened.st_dev, opened.st_ino) != (listed.st_dev, listed.st_ino):
            raise BadInput("file_changed", path=path)
        chunks, left = [], MAX_SUBMISSION_BYTES + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 16))):
            chunks.append(chunk)
            left -= len(chunk)
    except BlockingIOError:
        raise BadInput("file_not_regular", path=path, kind="file that does not answer") from None
    except OSError as exc:
        raise BadInput("file_unreadable", path=path, reason=os_reason(exc)) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > MAX_SUBMISSION_BYTES:
        raise BadInput("file_too_big", path=path, size=len(data), cap=MAX_SUBMISSION_BYTES)
    return data
