"""Which student submitted what: the submissions in a folder, and their bytes.

The folder holds ``.py`` files (the student id is the file name without ``.py``), one folder per student (the id
is the folder's name), or both. A student folder's submission is its only ``.py`` file, searched at any depth,
or, when it holds several, the one named ``solution.py`` or ``<slug>.py`` nearest the top. A submission that
cannot be judged gets a compile error with the reason.

Any other entry is not a submission, and is listed as skipped with the reason, never silently: a file that is not
``.py`` (a ``README.md``, the instructor's notes), and a name starting with ``.`` or ``__`` (``.DS_Store``,
``__MACOSX``, ``__pycache__``). Asked to (``every_entry``: ``judge grade --every-entry``), every file not so
named is a submission, its id its full name, judged as not Python unless it is.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from judge import messages
from judge.errors import BadInput
from judge.pipeline import Submitted


@dataclass(frozen=True)
class Submission:
    student: str
    """the file's name without ``.py``, or the student folder's name"""
    path: Path
    """the file to judge; the student's folder itself when it holds no single candidate"""
    unjudgeable: str | None = None
    """why no file in the student's folder can be judged, else None"""


@dataclass(frozen=True)
class Loaded:
    """A submission with its bytes, read once: they are hashed, then judged."""

    submission: Submission
    submitted: Submitted
    """what is judged: the file, its bytes (empty when it cannot be read) and why it cannot be judged, if so"""

    @property
    def data(self) -> bytes:
        return self.submitted.data

    @property
    def unjudgeable(self) -> str | None:
        """why it cannot be judged (unreadable, not Python, no single file), else None"""
        return self.submitted.unjudgeable

    @property
    def content_sha256(self) -> str:
        """What the verdict depends on besides the problem: the file's name and bytes, or what a student folder
        holds when no file in it can be judged. Never the folder the class sits in, which may move."""
        h = hashlib.sha256()
        why = (self.unjudgeable or "").replace(str(self.submission.path), self.submission.path.name)  # a refusal
        for part in (os.fsencode(self.submission.path.name), os.fsencode(why), self.data):
            h.update(len(part).to_bytes(8, "big") + part)
        return h.hexdigest()


@dataclass(frozen=True)
class Skipped:
    """An entry of the class folder that is not a submission."""

    entry: str
    """its name in the class folder"""
    reason: str
    """why it is not one (a sentence of the catalogue)"""


@dataclass(frozen=True)
class Found:
    submissions: list[Submission]
    """sorted by student id"""
    skipped: list[Skipped]
    """sorted by name"""


def _hidden(name: str) -> bool:
    return name.startswith((".", "__"))


def _not_a_submission(entry: Path, every_entry: bool, lang: str) -> str | None:
    """Why ``entry`` is not a submission, else None. A link named ``.py`` or to a folder is one, refused unread
    when it is judged, so the student it names gets a verdict saying why."""
    if _hidden(entry.name):
        return messages.say_in(lang, "grade_skip_hidden")
    looks_like_one = entry.suffix == ".py" or _is_folder(entry) or entry.is_symlink() and entry.is_dir()
    if not every_entry and not looks_like_one:
        return messages.say_in(lang, "grade_skip_not_python")
    return None


def _walk(folder: Path, python: bool = True) -> list[Path]:
    """Every ``.py`` entry (every entry, when not ``python``) below ``folder`` that is not hidden, links included
    (they are refused when read), no linked folder entered."""
    found = []
    for top, dirs, files in os.walk(folder):  # never follows a link to a folder
        dirs[:] = [d for d in dirs if not _hidden(d) and not os.path.islink(os.path.join(top, d))]
        found += [Path(top, f) for f in files if (f.endswith(".py") or not python) and not _hidden(f)]
    return found


def _names(folder: Path, paths: list[Path]) -> str:
    return ", ".join(str(p.relative_to(folder)) for p in paths[:5]) + (", …" if len(paths) > 5 else "")


def in_folder(folder: Path, slug: str, lang: str = "en") -> Submission:
    """The submission in a student's folder: its only ``.py`` file, else the one named ``solution.py`` or ``<slug>.py``
    nearest the top; else a submission naming why there is none, in ``lang`` (its path is the folder)."""
    candidates = sorted(_walk(folder), key=lambda p: (len(p.relative_to(folder).parts), str(p)))
    if len(candidates) == 1:
        return Submission(folder.name, candidates[0])
    named = [p for p in candidates if p.name in ("solution.py", f"{slug}.py")]
    if named:
        return Submission(folder.name, named[0])
    if not candidates:
        others = sorted(_walk(folder, python=False), key=lambda p: (len(p.relative_to(folder).parts), str(p)))
        if others:  # solution.txt, solution.PY: say what was found, so the student sees what to rename
            return Submission(folder.name, folder, messages.say_in(lang, "grade_no_python_file_found",
                                                                   names=_names(folder, others)))
        return Submission(folder.name, folder, messages.say_in(lang, "grade_no_python_file"))
    return Submission(folder.name, folder, messages.say_in(lang, "grade_several_python_files", count=len(candidates),
                                                           names=_names(folder, candidates)))


def _is_folder(entry: Path) -> bool:
    """A real folder, not a link to one (a link is a submission, refused when read)."""
    try:
        return stat.S_ISDIR(os.lstat(entry).st_mode)
    except OSError:
        return False


def discover(root: Path, slug: str, skip: Path | None = None, every_entry: bool = False, lang: str = "en") -> Found:
    """Every submission in ``root`` and every entry that is not one, with why in ``lang``; ``skip`` is neither (the
    output folder, when an instructor puts it inside the submissions folder)."""
    if not root.exists():
        raise BadInput("submissions_missing", path=root)
    if not root.is_dir():
        raise BadInput("submissions_not_dir", path=root)
    found: dict[str, Submission] = {}
    skipped = []
    for entry in sorted(root.iterdir()):
        if skip is not None and _is_folder(entry) and entry.resolve() == skip.resolve():
            continue
        reason = _not_a_submission(entry, every_entry, lang)
        if reason is not None:
            skipped.append(Skipped(entry.name, reason))
            continue
        if _is_folder(entry):
            submission = in_folder(entry, slug, lang)
        else:
            submission = Submission(entry.stem if entry.suffix == ".py" else entry.name, entry)
        if submission.student in found:
            raise BadInput("duplicate_student", student=submission.student, first=found[submission.student].path,
                           second=entry)
        found[submission.student] = submission
    if not found:
        raise BadInput("submissions_empty", path=root)
    return Found(sorted(found.values(), key=lambda s: s.student), skipped)


def load(submission: Submission, root: Path | None = None, lang: str = "en") -> Loaded:
    """Read a submission as untrusted input (nothing below the class folder ``root`` followed if it is a link),
    recording (never raising) why it cannot be judged, in ``lang``."""
    if submission.unjudgeable:
        return Loaded(submission, Submitted(submission.path, b"", unjudgeable=submission.unjudgeable))
    return Loaded(submission, Submitted.read(submission.path, beneath=root, lang=lang))
