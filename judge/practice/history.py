"""Every judged attempt, in one SQLite file: ``history.sqlite3`` in :func:`judge.places.data_home`.

Table ``attempts`` (schema version 3, kept in ``PRAGMA user_version``), one row per ``judge run``,
``judge submit`` or notebook check:

``id``           the row's number, in the order attempts were recorded
``at``           when, UTC, ISO 8601 to the second
``problem``      the problem's slug
``mode``         ``run`` (sample cases) or ``submit`` (every case)
``verdict``      the overall verdict
``passed``, ``total``   cases passed and judged
``cpu_s``        the CPU time over all its cases as its report gives it: for a submit, the hidden cases' coarse
                 bounds included (an upper bound, not a measure)
``wall_s``       the whole judgement, worker start-up included
``code_sha256``  a hash of the judged source, so identical attempts are recognisable
``source``       the file judged, or ``notebook``
``code``         the judged source itself (version 2; rows written by version 1 have ``""``)
``samples_cpu_s``  the CPU time measured on the sample cases, the figure ``judge history`` shows (version 3);
                 NULL when none was measured (the file could not be loaded) and for submits recorded before version
                 3, for which only the bound ``cpu_s`` is known and is shown as one

An older file is migrated in place the first time it is opened, its rows kept. Attempts are numbered per problem
from 1, oldest first, by ``id`` (as ``git log --reverse`` numbers commits, or LeetCode its submissions), so a
number names the same attempt for good: ``--show 2`` and ``--restore 2`` always mean the second one recorded.
A problem is *solved* once a submit was accepted, *attempted* once anything was judged, and *new* before; its
*tries* are its submits. Reading never creates the file: a missing file is an empty history.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import astuple, dataclass, field, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from judge.command import error_line, line
from judge.compat import StrEnum
from judge.errors import BadInput
from judge.places import data_home
from judge.report.build import report_language
from judge.report.escape import inline

SCHEMA_VERSION = 3
@dataclass(frozen=True)
class Migration:
    """From one schema version to the next: a column added, and how to fill it for the rows already there."""

    column: str
    definition: str
    fill: str = ""


MIGRATIONS = {
    1: Migration("code", "TEXT NOT NULL DEFAULT ''"),
    # a run judges the samples only, so its cpu_s was measured on them (0 where nothing was: not a measure)
    2: Migration("samples_cpu_s", "REAL",
                 "UPDATE attempts SET samples_cpu_s = cpu_s WHERE mode = 'run' AND cpu_s > 0 AND samples_cpu_s IS NULL"),
}
"""from each version to the next; each may run again on a file that already has its column (an older judge wrote
its own version over a newer one's), so it adds the column only where it is missing and fills only empty cells"""
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
    code TEXT NOT NULL DEFAULT '',
    samples_cpu_s REAL
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
    samples_cpu_s: float | None = None
    """the CPU time measured on the sample cases (None: nothing measured, or a submit from before version 3)"""
    number: int = field(default=0, compare=False)
    """its number among the problem's attempts, oldest 1 (0: not read from the history)"""

    @classmethod
    def from_report(cls, report: dict[str, Any], code: str = "") -> Attempt:
        """The attempt a report describes; its source is what the report names the submission (a path, or the
        front end's label such as ``notebook``)."""
        figures = [t["extra_data"]["cpu_time_s"] for t in report["tests"]]
        samples = [t["extra_data"]["cpu_time_s"] for t in report["tests"] if not t["extra_data"]["hidden"]]
        measured = [s for s in samples if s is not None]
        return cls(
            at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            problem=report["problem"]["slug"], mode=report["mode"], verdict=report["verdict"],
            passed=report["passed"], total=report["total"],
            cpu_s=round(sum(f for f in figures if f is not None), 4),
            wall_s=report["execution_time"], code_sha256=report["submission"]["sha256"],
            source=inline(report["submission"]["path"]),  # as shown: a path need not be UTF-8
            code=code,
            samples_cpu_s=round(sum(measured), 4) if measured else None,
        )

    @property
    def local_time(self) -> str:
        return datetime.fromisoformat(self.at).astimezone().strftime("%Y-%m-%d %H:%M:%S")

    @property
    def cpu_bound_s(self) -> float | None:
        """For a submit recorded before its samples' time was kept: the upper bound its report gave over every
        case (hidden cases' coarse bounds added up), to be shown as a bound; else None."""
        return self.cpu_s if self.samples_cpu_s is None and self.mode == "submit" and self.cpu_s > 0 else None


@dataclass(frozen=True)
class Progress:
    status: Status
    attempts: int
    """everything judged for the problem"""
    submissions: int = 0
    """its submits: the tries"""


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
        if version < SCHEMA_VERSION:  # a newer judge's file has every column this one uses: left as it is
            with db:
                if version == 0:
                    db.executescript(SCHEMA)
                _migrate(db, version or SCHEMA_VERSION)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return db
    except (OSError, sqlite3.Error) as exc:
        raise _unavailable(exc) from None


def _migrate(db: sqlite3.Connection, version: int) -> None:
    columns = {row[1] for row in db.execute("PRAGMA table_info(attempts)")}
    for step in range(version, SCHEMA_VERSION):
        migration = MIGRATIONS[step]
        if migration.column not in columns:
            db.execute(f"ALTER TABLE attempts ADD COLUMN {migration.column} {migration.definition}")
        if migration.fill:
            db.execute(migration.fill)


STORED = tuple(f.name for f in fields(Attempt) if f.name != "number")
"""the columns an :class:`Attempt` is stored in (its number is derived from the rows' order)"""


def record(attempt: Attempt) -> None:
    columns = ", ".join(STORED)
    marks = ", ".join("?" for _ in STORED)
    values = astuple(attempt)[:len(STORED)]
    with closing(_connect(create=True)) as db:
        try:
            with db:
                db.execute(f"INSERT INTO attempts ({columns}) VALUES ({marks})", values)
        except sqlite3.Error as exc:
            raise _unavailable(exc) from None


def record_report(report: dict[str, Any], keep: Callable[[Attempt], None] | None = None,
                  code: str = "") -> tuple[Attempt, str | None]:
    """Record a judged report, and the ``code`` judged, as an attempt (and hand the attempt to ``keep``, where a
    front end keeps more of it), the one way every front end records one. A history that cannot be written
    never fails the judgement: the warning to show, in the report's language, is returned instead (else None)."""
    attempt = Attempt.from_report(report, code)
    try:
        record(attempt)
        if keep is not None:
            keep(attempt)
    except BadInput as exc:
        lang = report_language(report)
        return attempt, line(lang, "not_recorded", reason=error_line(exc, lang))
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
    """Oldest first, each numbered among its problem's attempts (1: the first); every problem's when ``problem``
    is None."""
    where = "WHERE problem = ?" if problem else ""
    rows = _query(f"SELECT {', '.join(STORED)}, ROW_NUMBER() OVER (PARTITION BY problem ORDER BY id) "
                  f"FROM attempts {where} ORDER BY id", *([problem] if problem else []))
    return [Attempt(*row) for row in rows]


def progress() -> dict[str, Progress]:
    """Per problem with at least one attempt; a problem missing from the result is new."""
    rows = _query("SELECT problem, MAX(mode = 'submit' AND verdict = 'accepted'), COUNT(*), SUM(mode = 'submit') "
                  "FROM attempts GROUP BY problem")
    return {slug: Progress(Status.SOLVED if solved else Status.ATTEMPTED, count, submits)
            for slug, solved, count, submits in rows}


def numbered(problem: str, number: int) -> Attempt:
    """Attempt ``number`` at ``problem`` as ``judge history`` numbers them (1: the first recorded); a one-line
    error when there is none, or when it was recorded before the history kept code."""
    found = attempts(problem)
    if not 1 <= number <= len(found):
        raise BadInput("history_no_attempt", number=number, slug=problem, count=len(found))
    if not found[number - 1].code:
        raise BadInput("history_no_code", number=number, slug=problem)
    return found[number - 1]
