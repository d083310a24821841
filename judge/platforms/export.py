"""``judge export``: an autograder for Gradescope (a zip) or PrairieLearn (questions and a grader image).

Gradescope zip (its root, as ``docs/specs.md`` wants): ``setup.sh``, ``run_autograder``, ``export.json``, the
wheel, and ``statements/<slug>.md``, ``.html`` and ``<slug>.starter.py`` for the instructor.

PrairieLearn folder: ``questions/<slug>/`` (``info.json``, ``question.html``, ``starter.py``, and ``tests/`` with
the problem package and its reference: private to the course, mounted at ``/grade/tests`` only while grading) to
copy into the course's ``questions/``, and ``grader/`` (``Dockerfile``, ``setup.sh``, ``grade``, ``export.json``, a
wheel of the judge alone, ``statements/``) to build the image every question names. That image must be public
(PrairieLearn pulls it), so it holds no case and no reference: its build calibrates from the questions, bound in
for that one step and never copied into a layer.
"""

from __future__ import annotations

import functools
import io
import json
import shlex
import tempfile
import zipfile
from pathlib import Path

import jinja2

from judge import messages
from judge.errors import BadInput
from judge.machine import judge_version, torch_version
from judge.package.problem import Problem, find_problem
from judge.package.statement import markdown_html, render_markdown, render_statement
from judge.platforms import gradescope, prairielearn, wheel
from judge.platforms.config import CONFIG, Export, Exported
from judge.report.points import default_points

EPOCH = (1980, 1, 1, 0, 0, 0)
PL_PREFIX = "/opt/torch-judge"


@functools.cache
def _templates() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("judge.platforms", "templates"), autoescape=False,
                             keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    env.filters["shell"] = lambda value: shlex.quote(json.dumps(value))
    return env


def _render(name: str, **values: object) -> str:
    return _templates().get_template(name).render(version=judge_version(), **values)


def _problems(slugs: list[str], points: float | None) -> list[tuple[Exported, Problem]]:
    if len(set(slugs)) != len(slugs):
        raise BadInput("export_duplicate", slugs=" ".join(slugs))
    if points is not None and points <= 0:
        raise BadInput("export_bad_points", value=points)
    found = [find_problem(slug) for slug in slugs]
    return [(Exported(p.slug, float(points) if points is not None else
                      default_points(sum(c.hidden for c in p.cases), len(p.cases))), p)
            for p in found]


def _config(platform: str, chosen: list[tuple[Exported, Problem]], **options: object) -> str:
    return Export(platform, tuple(e for e, _ in chosen), judge={"version": judge_version(), "torch": torch_version()},
                  **options).text()  # type: ignore[arg-type]


def _wheelhouse(folder: Path | None) -> dict[str, tuple[bytes, int]]:
    """``wheelhouse/*.whl`` from ``folder``: what ``setup.sh`` installs with no index (torch and every dependency)."""
    if folder is None:
        return {}
    wheels = sorted(folder.glob("*.whl")) if folder.is_dir() else []
    if not wheels:
        raise BadInput("export_bad_wheelhouse", path=folder)
    return {f"wheelhouse/{path.name}": (path.read_bytes(), 0o644) for path in wheels}


def _common(platform: str, chosen: list[tuple[Exported, Problem]], config: str, wheelhouse: Path | None,
            bundled: bool = True) -> dict[str, tuple[bytes, int]]:
    """The files both platforms' installers need, by name: ``setup.sh``, ``export.json``, the wheel (with the
    problems and their references only when ``bundled``), the wheelhouse if one is given, the statements and
    starters."""
    torch = torch_version().split("+")[0]
    with tempfile.TemporaryDirectory() as folder:
        built = wheel.build([p for _, p in chosen] if bundled else [], Path(folder))
        files = {built.name: (built.read_bytes(), 0o644)}
    files["setup.sh"] = (_render("setup.sh.j2", platform=platform, torch=torch, wheel=wheel.name()).encode(), 0o755)
    files[CONFIG] = (config.encode(), 0o644)
    files.update(_wheelhouse(wheelhouse))
    for _, problem in chosen:
        files[f"statements/{problem.slug}.md"] = (render_markdown(problem).encode(), 0o644)
        files[f"statements/{problem.slug}.html"] = (render_statement(problem, "html").encode(), 0o644)
        files[f"statements/{problem.slug}.starter.py"] = (problem.starter.read_bytes(), 0o644)
    return files


def export_gradescope(slugs: list[str], out: Path, *, points: float | None, visibility: str, leaderboard: bool,
                      cooldown_minutes: float, allow_weak_sandbox: bool, wheelhouse: Path | None = None) -> Path:
    if cooldown_minutes < 0:
        raise BadInput("export_bad_cooldown", value=cooldown_minutes)
    chosen = _problems(slugs, points)
    config = _config("gradescope", chosen, hidden_visibility=visibility, leaderboard=leaderboard,
                     cooldown_minutes=cooldown_minutes, allow_weak_sandbox=allow_weak_sandbox)
    files = _common("gradescope", chosen, config, wheelhouse)
    fallback = gradescope.refused(messages.say("autograde_not_installed"))
    files["run_autograder"] = (_render("run_autograder.j2", fallback=fallback).encode(), 0o755)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, EPOCH)
            info.external_attr, info.compress_type = files[name][1] << 16, zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name][0])
    _write(out, buffer.getvalue())
    return out


def export_prairielearn(slugs: list[str], out: Path, *, points: float | None, image: str, timeout_s: int,
                        allow_weak_sandbox: bool, wheelhouse: Path | None = None) -> Path:
    if not 1 <= timeout_s <= 600:
        raise BadInput("export_bad_timeout", value=timeout_s)
    chosen = _problems(slugs, points)
    config = _config("prairielearn", chosen, hidden_visibility="visible", allow_weak_sandbox=allow_weak_sandbox)
    files = {f"grader/{name}": content for name, content in _common("prairielearn", chosen, config, wheelhouse, False).items()}
    fallback = prairielearn.refused(messages.say("autograde_not_installed"))
    files["grader/grade"] = (_render("grade.j2", fallback=fallback).encode(), 0o755)
    files["grader/Dockerfile"] = (_render("Dockerfile.j2", image=image, copies=_copies(files)).encode(), 0o644)
    for exported, problem in chosen:
        entrypoint = [f"{PL_PREFIX}/source/grade", problem.slug]
        info = prairielearn.info(exported, problem, image, entrypoint, timeout_s)
        statement = markdown_html(render_markdown(problem)).replace("{{", "&#123;&#123;")  # no mustache tag in it
        files[f"questions/{problem.slug}/info.json"] = (json.dumps(info, indent=2).encode() + b"\n", 0o644)
        files[f"questions/{problem.slug}/question.html"] = (
            _render("question.html.j2", statement=statement, file=prairielearn.SOLUTION_FILE).encode(), 0o644)
        files[f"questions/{problem.slug}/starter.py"] = (problem.starter.read_bytes(), 0o644)
        files.update({f"questions/{problem.slug}/tests/{name}": (data, 0o644) for name, data in wheel.package(problem)})
    for name, (data, mode) in files.items():
        _write(out / name, data, mode)
    return out


def _copies(files: dict[str, tuple[bytes, int]]) -> list[str]:
    """The Dockerfile's COPY instructions, in JSON form: every file the export wrote into ``grader/`` by name, one
    instruction per folder (COPY keeps only a file's base name), and nothing else. ``COPY .`` took whatever else
    lay in the folder into the public image, a hidden case left there included."""
    folders: dict[str, list[str]] = {}
    for name in sorted(files):
        if name.startswith("grader/"):
            relative = name.removeprefix("grader/")
            folders.setdefault(relative.rpartition("/")[0], []).append(relative)
    return [json.dumps([*names, f"{PL_PREFIX}/source/{folder}{'/' if folder else ''}"])
            for folder, names in sorted(folders.items())]


def _write(path: Path, data: bytes, mode: int = 0o644) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        path.chmod(mode)
    except OSError as exc:
        raise BadInput("out_unwritable", path=path, reason=exc.strerror) from None
