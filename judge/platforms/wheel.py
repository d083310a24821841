"""A wheel of this judge that bundles only the exported problems, built from the installed package itself.

Whatever way the judge was installed (a wheel, an editable checkout), the running package is what gets exported:
the ``judge`` package's files as they are here, a ``judge_bundle`` holding each exported problem's folder (its
statement, starter, cases; not its declared submissions, which include correct solutions) and its reference
solution, so an instructor's own problems from ``JUDGE_PROBLEMS`` travel as well as bundled ones, and the
installed distribution's own ``METADATA`` and ``entry_points.txt``. The format is the wheel format's
(packaging.python.org, "Binary distribution format"): a zip whose ``*.dist-info/RECORD`` lists every file with its
sha256, written here with the standard library; entries carry a fixed date, so the same judge and problems give
the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import zipfile
from importlib import metadata
from pathlib import Path

import judge
from judge.errors import BadInput
from judge.machine import judge_version
from judge.package.problem import Problem, bundle

DISTRIBUTION = "torch-diagnostics-judge"
SKIPPED = ("__pycache__", "submissions")
"""folder names never exported: bytecode, and a problem's declared submissions"""
EPOCH = (1980, 1, 1, 0, 0, 0)
WHEEL = f"Wheel-Version: 1.0\nGenerator: judge {judge_version()} (judge export)\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def name() -> str:
    return f"{DISTRIBUTION.replace('-', '_')}-{judge_version()}-py3-none-any.whl"


def _files(root: Path, prefix: str) -> list[tuple[str, Path]]:
    found = []
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if path.is_file() and not any(p in SKIPPED for p in parts) and path.suffix != ".pyc":
            found.append((f"{prefix}/{'/'.join(parts)}", path))
    return found


def _contents(problems: list[Problem]) -> list[tuple[str, bytes]]:
    entries = [(name, path.read_bytes()) for name, path in _files(Path(judge.__file__).parent, "judge")]
    here = bundle()
    init = (here / "__init__.py").read_bytes() if here and (here / "__init__.py").is_file() else b""
    entries.append(("judge_bundle/__init__.py", init))
    for problem in problems:
        entries += [(f"judge_bundle/{name}", data) for name, data in package(problem)]
    return entries


def package(problem: Problem) -> list[tuple[str, bytes]]:
    """The problem's files as the judge finds them under a problem root's parent: ``problems/<slug>/...`` (not
    its declared submissions) and ``solutions/<slug>.py``, its reference."""
    found = [(name, path.read_bytes()) for name, path in _files(problem.root, f"problems/{problem.slug}")]
    return found + [(f"solutions/{problem.slug}.py", problem.reference.read_bytes())]


def _dist_info() -> list[tuple[str, bytes]]:
    try:
        installed = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise BadInput("export_not_installed", name=DISTRIBUTION) from None
    # an egg-info folder (a checkout's, found first when the checkout is on sys.path) has PKG-INFO instead
    text = installed.read_text("METADATA") or installed.read_text("PKG-INFO") or ""
    if installed.metadata["Version"] != judge_version() or "Requires-Dist: torch" not in text:
        raise BadInput("export_stale_metadata", name=DISTRIBUTION, found=installed.metadata["Version"],
                       version=judge_version())
    folder = f"{DISTRIBUTION.replace('-', '_')}-{judge_version()}.dist-info"
    texts = {"METADATA": text, "entry_points.txt": installed.read_text("entry_points.txt") or "", "WHEEL": WHEEL}
    return [(f"{folder}/{key}", value.encode()) for key, value in texts.items()]


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build(problems: list[Problem], folder: Path) -> Path:
    """Write the wheel into ``folder``; returns its path."""
    entries = _contents(problems) + _dist_info()
    record = entries[-1][0].rsplit("/", 1)[0] + "/RECORD"
    lines = [_record_line(name, data) for name, data in entries] + [f"{record},,"]
    entries.append((record, ("\n".join(lines) + "\n").encode()))
    path = folder / name()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for entry, data in entries:
            info = zipfile.ZipInfo(entry, EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return path
