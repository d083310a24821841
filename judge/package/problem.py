"""Load a problem package (see :mod:`judge.package` for the layout) into a :class:`Problem`."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from judge.errors import BadInput
from judge.package.cases import VISIBILITIES, Case, load_case
from judge.package.tolerance import DEFAULT, Tolerance, parse_tolerance

REPO_ROOT = Path(__file__).resolve().parents[2]
DIFFICULTIES = ("easy", "medium", "hard")


def problems_root() -> Path:
    """``$JUDGE_PROBLEMS`` if set, else the ``problems/`` folder beside the ``judge`` package."""
    return Path(os.environ.get("JUDGE_PROBLEMS", REPO_ROOT / "problems"))


def solutions_root() -> Path:
    return Path(os.environ.get("JUDGE_SOLUTIONS", problems_root().parent / "solutions"))


@dataclass(frozen=True)
class Limits:
    time_multiplier: float
    """a case's CPU-time limit is the reference's CPU time times this ..."""
    time_floor_s: float
    """... but never below this many CPU seconds"""
    memory_mb: int
    """peak resident memory of the whole worker, torch included"""


@dataclass(frozen=True)
class DeclaredSubmission:
    path: Path
    verdict: str
    """the verdict the judge must give it: the name of its folder"""
    pitfall: str | None
    """for wrong submissions: the pitfall id from ``# pitfall: <id>``"""


@dataclass(frozen=True)
class Problem:
    root: Path
    meta: dict[str, Any] = field(repr=False)

    @property
    def slug(self) -> str:
        return self.meta["slug"]

    @property
    def title(self) -> str:
        return self.meta["title"]

    @property
    def methods(self) -> list[dict[str, str]]:
        return self.meta["methods"]

    @property
    def constants(self) -> dict[str, Any]:
        return self.meta.get("constants", {})

    @property
    def pitfalls(self) -> list[dict[str, str]]:
        return self.meta.get("pitfalls", [])

    @property
    def hints(self) -> dict[str, str]:
        """The hint catalogue: pitfall id -> what to tell a learner whose output shows that mistake."""
        return {p["id"]: p["hint"] for p in self.pitfalls if "hint" in p}

    @property
    def tolerance(self) -> Tolerance:
        """How far a number may stray from its expected value: ``[comparison]``, or the default rule."""
        return parse_tolerance(self.meta["comparison"]) if "comparison" in self.meta else DEFAULT

    @property
    def limits(self) -> Limits:
        return Limits(**self.meta["limits"])

    @property
    def reference(self) -> Path:
        return solutions_root() / f"{self.slug}.py"

    @property
    def starter(self) -> Path:
        return self.root / "starter.py"

    def template(self, lang: str = "en") -> Path:
        return self.root / ("statement.md.j2" if lang == "en" else f"statement.{lang}.md.j2")

    @cached_property
    def cases(self) -> list[Case]:
        """Samples first, then hidden cases, each group in file-name order."""
        names = {m["name"] for m in self.methods}
        return [
            load_case(path, vis, names)
            for vis in VISIBILITIES
            for path in sorted((self.root / "cases" / vis).glob("*.json"))
        ]

    @property
    def samples(self) -> list[Case]:
        return [c for c in self.cases if not c.hidden]

    def declared_submissions(self) -> list[DeclaredSubmission]:
        found = []
        for path in sorted((self.root / "submissions").glob("*/*.py")):
            head = path.read_text(encoding="utf-8").splitlines()[:5]
            tags = [line.split(":", 1)[1].strip() for line in head if line.startswith("# pitfall:")]
            found.append(DeclaredSubmission(path, path.parent.name, tags[0] if tags else None))
        return found


def _check_meta(meta: dict[str, Any], path: Path) -> None:
    def need(ok: bool, what: str) -> None:
        if not ok:
            raise BadInput("problem_invalid", path=path, problem=what)

    for key in ("slug", "title"):
        need(isinstance(meta.get(key), str), f"'{key}' must be a string")
    need(meta.get("difficulty") in DIFFICULTIES, f"'difficulty' must be one of {', '.join(DIFFICULTIES)}")
    need(isinstance(meta.get("tags", []), list), "'tags' must be a list of strings")
    methods = meta.get("methods")
    need(isinstance(methods, list) and methods and all(isinstance(m.get("name"), str) for m in methods),
         "[[methods]] tables with a 'name' are required")
    pitfalls = meta.get("pitfalls", [])
    need(isinstance(pitfalls, list) and all(
        isinstance(p, dict) and isinstance(p.get("id"), str) and isinstance(p.get("hint", ""), str) for p in pitfalls),
         "[[pitfalls]] tables need a string 'id' (and 'hint', when present, is a string)")
    limits = meta.get("limits", {})
    need(set(limits) == {"time_multiplier", "time_floor_s", "memory_mb"},
         "[limits] needs exactly time_multiplier, time_floor_s and memory_mb")
    try:
        parse_tolerance(meta.get("comparison", {}))
    except ValueError as exc:
        need(False, str(exc))
    need(meta["slug"] == path.parent.name, f"slug '{meta['slug']}' must match the folder name")


def load_problem(root: Path) -> Problem:
    path = root / "problem.toml"
    try:
        meta = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BadInput("problem_invalid", path=path, problem=f"cannot read it ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise BadInput("problem_invalid", path=path, problem=f"not valid TOML ({exc})") from None
    _check_meta(meta, path)
    return Problem(root=root, meta=meta)


def available() -> list[str]:
    root = problems_root()
    return sorted(p.parent.name for p in root.glob("*/problem.toml"))


def find_problem(slug: str) -> Problem:
    known = available()
    if not known:
        raise BadInput("no_problems", root=problems_root())
    if slug not in known:
        raise BadInput("unknown_problem", slug=slug, known=", ".join(known))
    return load_problem(problems_root() / slug)
