"""Every judged attempt, in one SQLite file: ``history.sqlite3`` in :func:`judge.places.data_home`.

Table ``attempts`` (schema version 2, kept in ``PRAGMA user_version``), one row per ``judge run``,
``judge submit`` or notebook check:

``at``           when, UTC, ISO 8601 to the second
``problem``      the problem's slug
``mode``         ``run`` (sample cases) or ``submit`` (every case)
``verdict``      the overall verdict
``passed``, ``total``   cases passed and judged
``cpu_s``        the submission's CPU time over all its cases (its runtime)
``wall_s``       the whole judgement, worker start-up included
``code_sha256``  a hash of the judged source, so identical attempts are recognisable
``source``       the file judged, or ``notebook``
``code``         the judged source itself (version 2; rows written by version 1 have ``""``: a version-1 file is
                 migrated in place the first time it is opened, its rows kept)

A problem is *solved* once a submit was accepted, *attempted* once anything was judged, and *new* before.
Reading never creates the file: a missing file is an empty history.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import astuple, dataclass, fields
from datetime import datetime, timezone
from enum import StrEnum
from pathlib import Path
from typing import Any, Callable

from judge import messages
from judge.errors import BadInput
from judge.places import data_home
from judge.report.escape import inline

SCHEMA_VERSION = 2
MIGRATIONS = {1: "ALTER TABLE attempts ADD COLUMN code TEXT NOT NULL DEFAULT ''"}
"""from each version to the next"""
SCHEMA = """
CREATE TABLE IF NOT EXISTS attempts (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    problem TEXT NOT NULL,
    mode TEXT NOT NULL,
    verdict TEXT NOT NULL,
    passed INTEGER NOT NULL,
    total INTEGER NOT NULL,
    cpu_s REAL NOT NULL,
    wall_s REAL NOT NULL,
    code_sha256 TEXT NOT NULL,
    source TEXT NOT NULL,
    code TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS attempts_by_problem ON attempts (problem, at);
"""
BUSY_TIMEOUT_S = 10.0
"""two judges finishing at once wait for each other instead of failing"""


class Status(StrEnum):
    SOLVED = "solved"
    ATTEMPTED = "attempted"
    NEW = "new"


@dataclass(frozen=True)
class Attempt:
    at: str
    problem: str
    mode: str
    verdict: str
    passed: int
    total: int
    cpu_s: float
    wall_s: float
    code_sha256: str
    source: str
    code: str = ""
    """the judged source ("" when not kept: rows from before schema version 2)"""

    @classmethod
    def from_report(cls, report: dict[str, Any], code: str = "") -> Attempt:
        """The attempt a report describes; its source is what the report names the submission (a path, or the
        front end's label such as ``notebook``)."""
        return cls(
            at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            problem=report["problem"]["slug"], mode=report["mode"], verdict=report["verdict"],
            passed=report["passed"], total=report["total"],
            cpu_s=round(sum(t["extra_data"]["cpu_time_s"] for t in report["tests"]), 4),
            wall_s=report["execution_time"], code_sha256=report["submission"]["sha256"],
            source=inline(report["submission"]["path"]),  # as shown: a path need not be UTF-8
            code=code,
        )

    @property
    def local_time(self) -> str:
        return datetime.fromisoformat(self.at).astimezone().strftime("%Y-%m-%d %H:%M:%S")


@dataclass(frozen=True)
class Progress:
    status: Status
    attempts: int


def db_path() -> Path:
    return data_home() / "history.sqlite3"


def _unavailable(exc: Exception) -> BadInput:
    return BadInput("history_unavailable", path=db_path(), reason=str(exc) or type(exc).__name__)


def _connect(create: bool) -> sqlite3.Connection | None:
    path = db_path()
    if not create and not path.exists():
        return None
    try:
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S)
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            with db:
                if version == 0:
                    db.executescript(SCHEMA)
                for step in range(version or SCHEMA_VERSION, SCHEMA_VERSION):
                    db.execute(MIGRATIONS[step])
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return db
    except (OSError, sqlite3.Error) as exc:
        raise _unavailable(exc) from None


def record(attempt: Attempt) -> None:
    columns = ", ".join(f.name for f in fields(Attempt))
    marks = ", ".join("?" for _ in fields(Attempt))
    with closing(_connect(create=True)) as db:
        try:
            with db:
                db.execute(f"INSERT INTO attempts ({columns}) VALUES ({marks})", astuple(attempt))
        except sqlite3.Error as exc:
            raise _unavailable(exc) from None


def record_report(report: dict[str, Any], keep: Callable[[Attempt], None] | None = None,
                  code: str = "") -> tuple[Attempt, str | None]:
    """Record a judged report, and the ``code`` judged, as an attempt (and hand the attempt to ``keep``, where a
    front end keeps more of it), the one way every front end records one. A history that cannot be written
    never fails the judgement: the warning to show is returned instead (else None)."""
    attempt = Attempt.from_report(report, code)
    try:
        record(attempt)
        if keep is not None:
            keep(attempt)
    except BadInput as exc:
        return attempt, messages.say("not_recorded", reason=exc)
    return attempt, None


def _query(sql: str, *params: Any) -> list[tuple[Any, ...]]:
    db = _connect(create=False)
    if db is None:
        return []
    with closing(db):
        try:
            return db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise _unavailable(exc) from None


def attempts(problem: str | None = None) -> list[Attempt]:
    """Newest first; every problem's when ``problem`` is None."""
    columns = ", ".join(f.name for f in fields(Attempt))
    where = "WHERE problem = ?" if problem else ""
    rows = _query(f"SELECT {columns} FROM attempts {where} ORDER BY at DESC, id DESC", *([problem] if problem else []))
    return [Attempt(*row) for row in rows]


def progress() -> dict[str, Progress]:
    """Per problem with at least one attempt; a problem missing from the result is new."""
    rows = _query("SELECT problem, MAX(mode = 'submit' AND verdict = 'accepted'), COUNT(*) "
                  "FROM attempts GROUP BY problem")
    return {slug: Progress(Status.SOLVED if solved else Status.ATTEMPTED, count) for slug, solved, count in rows}


def numbered(problem: str, number: int) -> Attempt:
    """Attempt ``number`` at ``problem`` as ``judge history`` numbers them (1: the newest); a one-line error when
    there is none, or when it was recorded before the history kept code."""
    found = attempts(problem)
    if not 1 <= number <= len(found):
        raise BadInput("history_no_attempt", number=number, slug=problem, count=len(found))
    if not found[number - 1].code:
        raise BadInput("history_no_code", number=number, slug=problem)
    return found[number - 1]
