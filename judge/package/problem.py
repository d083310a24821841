"""Load a problem package (see :mod:`judge.package` for the layout) into a :class:`Problem`."""

from __future__ import annotations

import difflib
import importlib.resources
import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable

from judge.compat import tomllib
from judge.errors import BadInput
from judge.messages import Said
from judge.settings import PROBLEMS, SOLUTIONS, Setting
from judge.package.cases import VISIBILITIES, Case, package_case
from judge.package.domain import Rule, parse as parse_domain
from judge.package.tolerance import DEFAULT, Tolerance, parse_tolerance

BUNDLE = "judge_bundle"
"""the package that carries the problem set: ``problems/`` and ``solutions/`` (links to the repository's
top-level folders in a checkout, copies of them in a wheel)"""
DIFFICULTIES = ("easy", "medium", "hard")
MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
"""a dotted module name, as ``[worker] preload`` lists them"""


def bundle() -> Path | None:
    """The folder of the bundled problem set, or None when the judge was installed without it.

    In a checkout it is also found beside the ``judge`` package when it cannot be imported: an editable install
    made before the bundle existed maps only ``judge``.
    """
    try:
        return Path(importlib.resources.files(BUNDLE))
    except ModuleNotFoundError:
        beside = Path(__file__).resolve().parents[2] / BUNDLE
        return beside if beside.is_dir() else None


def _existing(setting: Setting) -> list[Path]:
    """The setting's folders, each of which must exist, so that a mistyped folder is never silently skipped."""
    folders = setting.folders()
    for folder in folders:
        if not folder.is_dir():
            raise BadInput("root_missing", variable=setting.name, path=folder)
    return folders


def problems_roots() -> list[Path]:
    """Where problems are looked for, in order: each folder of ``$JUDGE_PROBLEMS``, then the bundled problems.

    A slug found in an earlier root shadows the same slug in a later one, so an instructor's edited copy of a
    bundled problem replaces it.
    """
    found = bundle()
    return PROBLEMS.folders() + ([found / "problems"] if found else [])


def solutions_roots() -> list[Path]:
    """Where reference solutions are looked for, in order: each folder of ``$JUDGE_SOLUTIONS``, then the
    ``solutions/`` folder beside each problem root (see :attr:`Problem.reference`)."""
    return SOLUTIONS.folders() + [root.parent / "solutions" for root in problems_roots()]


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

    def translation(self, lang: str) -> dict[str, Any]:
        """``[translations.<lang>]``: the title and hints in ``lang`` (empty for English or a language the
        package does not translate)."""
        return self.meta.get("translations", {}).get(lang, {}) if lang != "en" else {}

    def title_in(self, lang: str) -> str:
        """The title a learner reading ``lang`` sees: its translation, else the English one."""
        return self.translation(lang).get("title", self.title)

    def hints_in(self, lang: str) -> dict[str, str]:
        """The hint catalogue in ``lang``: each hint's translation, else its English text."""
        translated = self.translation(lang).get("hints", {})
        return {pitfall: translated.get(pitfall, text) for pitfall, text in self.hints.items()}

    @property
    def tolerance(self) -> Tolerance:
        """How far a number may stray from its expected value: ``[comparison]``, or the default rule."""
        return parse_tolerance(self.meta["comparison"]) if "comparison" in self.meta else DEFAULT

    @cached_property
    def domain(self) -> list[Rule]:
        """``[[domain]]``: the inputs the statement rules out (:mod:`judge.package.domain`)."""
        return parse_domain(self.meta)

    @property
    def limits(self) -> Limits:
        return Limits(**self.meta["limits"])

    @property
    def preload(self) -> tuple[str, ...]:
        """modules every worker of this problem imports before it is sent the submission (``[worker] preload``)"""
        return tuple(self.meta.get("worker", {}).get("preload", ()))

    @property
    def reference(self) -> Path:
        """``<slug>.py`` in the first ``$JUDGE_SOLUTIONS`` folder that has it, else in the ``solutions/`` folder
        beside this problem's root."""
        name = f"{self.slug}.py"
        beside = self.root.parent.parent / "solutions" / name
        return next((d / name for d in _existing(SOLUTIONS) if (d / name).is_file()), beside)

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
            package_case(path, vis, names)
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


SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
"""a problem's name: its folder, and what every command, report and page shows"""


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
    _check_translations(meta, need)
    limits = meta.get("limits", {})
    need(set(limits) == {"time_multiplier", "time_floor_s", "memory_mb"},
         "[limits] needs exactly time_multiplier, time_floor_s and memory_mb")
    worker = meta.get("worker", {})
    need(isinstance(worker, dict) and set(worker) <= {"preload"} and isinstance(worker.get("preload", []), list)
         and all(isinstance(m, str) and MODULE.fullmatch(m) for m in worker.get("preload", [])),
         "[worker] knows only preload, a list of module names such as \"torch._dynamo\"")
    try:
        parse_tolerance(meta.get("comparison", {}))
        parse_domain(meta)
    except ValueError as exc:
        need(False, str(exc))
    need(bool(SLUG.fullmatch(meta["slug"])), "'slug' must be lower-case letters and digits joined by single hyphens")
    need(meta["slug"] == path.parent.name, f"slug '{meta['slug']}' must match the folder name")


def _check_translations(meta: dict[str, Any], need: Callable[[bool, str], None]) -> None:
    """``[translations.<lang>]``: only ``title`` (a string) and ``hints`` (pitfall id -> string), each id one of a
    pitfall that has an English hint."""
    translations = meta.get("translations", {})
    need(isinstance(translations, dict) and all(isinstance(t, dict) for t in translations.values()),
         "[translations.<lang>] tables hold a 'title' and [translations.<lang>.hints]")
    hinted = {p["id"] for p in meta.get("pitfalls", []) if "hint" in p}
    for lang, entry in translations.items():
        need(set(entry) <= {"title", "hints"}, f"[translations.{lang}] knows only title and hints")
        need(isinstance(entry.get("title", ""), str), f"[translations.{lang}] title must be a string")
        hints = entry.get("hints", {})
        need(isinstance(hints, dict) and all(isinstance(h, str) for h in hints.values()),
             f"[translations.{lang}.hints] maps pitfall ids to strings")
        stray = sorted(set(hints) - hinted)
        need(not stray, f"[translations.{lang}.hints] names {', '.join(stray)}, which no pitfall with a hint has")


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


def _packages() -> dict[str, Path]:
    """Each problem's folder by slug, the first root that has a slug winning (see :func:`problems_roots`)."""
    _existing(PROBLEMS)  # a mistyped folder is an error, not a root without problems
    roots = problems_roots()
    found: dict[str, Path] = {}
    for root in roots:
        for path in sorted(root.glob("*/problem.toml")):
            found.setdefault(path.parent.name, path.parent)
    if not found:
        raise BadInput("no_problems", roots=", ".join(map(str, roots)) or "no folder", sep=os.pathsep)
    return found


def available() -> list[str]:
    """The slugs of every problem in every root; a one-line error when there is none."""
    return sorted(_packages())


def unknown_problem(slug: str, known: list[str]) -> BadInput:
    """The one-line error for a slug that names no problem: the closest names first ("did you mean"), as
    ``git`` and ``cargo`` suggest a misspelt command, then every name."""
    close = difflib.get_close_matches(slug, known, n=3, cutoff=0.6)
    if close:
        either: str | Said = f"'{close[0]}'"
        for other in close[1:]:  # 'a' or 'b' or 'c', said in the message's language
            either = Said("either", first=either, second=f"'{other}'")
        return BadInput("unknown_problem_close", slug=slug, close=either)
    return BadInput("unknown_problem", slug=slug, known=", ".join(sorted(known)))


def find_problem(slug: str) -> Problem:
    packages = _packages()
    if slug not in packages:
        raise unknown_problem(slug, list(packages))
    return load_problem(packages[slug])
