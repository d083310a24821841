"""``judge new <slug>``: a new problem package from the skeleton in ``skeleton/``.

It writes ``problems/<slug>/`` (problem.toml, English and Chinese statement templates, a starter, one sample
case, an empty ``cases/hidden/``) and a reference stub ``solutions/<slug>.py``. Once the author has written the
reference and run ``judge gen <slug>``, ``judge verify <slug>`` accepts the package; ``docs/authoring.md`` goes on
from there.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from string import Template

from judge.errors import BadInput
from judge.package.problem import SLUG, problems_roots
from judge.settings import PROBLEMS, SOLUTIONS

SKELETON = Path(__file__).with_name("skeleton")
FILLED = ("problem.toml",)
"""skeleton files that name the problem (``$slug``, ``$title``); the rest are copied as they are"""


def title_of(slug: str) -> str:
    return " ".join(word.capitalize() for word in slug.split("-"))


def destination(slug: str) -> tuple[Path, Path]:
    """Where a new package and its reference stub go: the first folder of ``$JUDGE_PROBLEMS`` (and the first
    reference root), else ``problems/`` and ``solutions/`` in the current folder; never the installed bundle,
    which a reinstall replaces (and which may be site-packages)."""
    configured = PROBLEMS.folders()
    root = configured[0] if configured else Path.cwd() / "problems"
    references = SOLUTIONS.folders()
    return root / slug, (references[0] if references else root.parent / "solutions") / f"{slug}.py"


def is_found(package: Path) -> bool:
    """Whether ``judge`` finds a package written there without ``JUDGE_PROBLEMS`` being set."""
    return any(package.parent.resolve() == root.resolve() for root in problems_roots())


def scaffold(slug: str) -> tuple[Path, Path]:
    """Write the package and the reference stub (see :func:`destination`); return their paths."""
    if not SLUG.fullmatch(slug):
        raise BadInput("new_bad_slug", slug=slug)
    package, reference = destination(slug)
    for path in (package, reference):
        if path.exists():
            raise BadInput("new_exists", path=path)
    fields = {"slug": slug, "title": title_of(slug)}
    try:
        shutil.copytree(SKELETON, package, ignore=shutil.ignore_patterns("reference.py", "__pycache__"))
        for name in FILLED:
            path = package / name
            path.write_text(Template(path.read_text(encoding="utf-8")).substitute(fields), encoding="utf-8")
        (package / "cases" / "hidden").mkdir()
        reference.parent.mkdir(parents=True, exist_ok=True)
        stub = Template((SKELETON / "reference.py").read_text(encoding="utf-8")).substitute(fields)
        reference.write_text(stub, encoding="utf-8")
    except OSError as exc:
        raise BadInput("out_unwritable", path=exc.filename or package, reason=exc.strerror) from None
    return package, reference
