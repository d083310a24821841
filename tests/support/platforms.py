"""Exporting and autograding as the platform tests do it: a submission wrong on one hidden case, the results
checked against the platforms' schemas, an autograder run on a submission folder."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import jsonschema

from tests.support.cli import REFERENCE_SOURCE, judge_env
from tests.support.schemas import schema

ONE_HIDDEN_WRONG = REFERENCE_SOURCE + '''

class Solution(Solution):
    def compute_activation_stats(self, model, x):
        found = super().compute_activation_stats(model, x)
        return [{**layer, "std": layer["std"] + 1.0} for layer in found] if x.shape[0] == 5 else found
'''
"""right on the sample and on hidden/01-six, wrong on hidden/02-five (a batch of five): one hidden case of two"""


def archive_text(path: Path, name: str) -> str:
    with zipfile.ZipFile(path) as archive:
        return archive.read(name).decode()


def valid(results: dict, name: str) -> dict:
    jsonschema.Draft7Validator(schema(name)).validate(results)
    return results



def autograde(toy_root: Path, source: Path, root: Path, platform: str, *options: str,
              level: str | None = None) -> dict:
    env = judge_env(toy_root)
    if level:
        env["JUDGE_MAX_LEVEL"] = level
    result = subprocess.run([sys.executable, "-m", "judge", "autograde", platform, "--config",
                             str(source / "export.json"), "--root", str(root), *options],
                            capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads((root / "results" / "results.json").read_text())


def submit(root: Path, folder: str, source: str, name: str = "my_solution.py") -> Path:
    (root / folder).mkdir(parents=True, exist_ok=True)
    path = root / folder / name
    path.write_text(source)
    return path


def image_sources(grader: Path) -> dict[str, Path]:
    """What the PrairieLearn Dockerfile in ``grader`` copies into the image, by its path under the image's source
    folder: its ``COPY ["a", "b", "/dest/"]`` lines, read as Docker reads them (each file lands under its base
    name), so a test judges what the image would hold, not what the folder holds."""
    copied = {}
    for line in (grader / "Dockerfile").read_text().splitlines():
        if line.startswith("COPY "):
            *sources, dest = json.loads(line.removeprefix("COPY "))
            folder = dest.removeprefix("/opt/torch-judge/source/")
            copied.update({f"{folder}{Path(source).name}": grader / source for source in sources})
    return copied


def build_image_source(grader: Path, image: Path) -> None:
    """``image``/source as the Dockerfile's COPY lines fill it."""
    for name, source in image_sources(grader).items():
        (image / "source" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, image / "source" / name)
