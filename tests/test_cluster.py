"""Grading on a cluster: the container image definition, the example Kubernetes Indexed Job, and shards started the
way Slurm and Kubernetes start them (``--shard auto``), one killed and started again, merged into one class.

The manifest is checked against the Kubernetes API schema of the release where ``backoffLimitPerIndex`` became GA
(1.33), as bundled by ``kubernetes-validate`` (a test-only dependency: it carries the official schemas for every
release, so no cluster and no network is needed), in strict mode, so a misspelt field fails.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from tests.support.cli import REPO, SLUG, judge_env

MANIFEST = REPO / "deploy" / "kubernetes" / "grade-indexed-job.yaml"
KUBERNETES = "1.33.0"


def _documents() -> list[dict]:
    yaml = pytest.importorskip("yaml")
    return list(yaml.safe_load_all(MANIFEST.read_text()))


def test_the_manifest_is_valid_against_the_kubernetes_schema():
    validate = pytest.importorskip("kubernetes_validate")
    documents = _documents()
    assert [d["kind"] for d in documents] == ["PersistentVolumeClaim", "Job", "Job"]
    for document in documents:
        validate.validate(document, KUBERNETES, strict=True)
    broken = {**documents[1], "spec": {**documents[1]["spec"], "backoffLimitPerIdx": 2}}
    with pytest.raises(validate.ValidationError):
        validate.validate(broken, KUBERNETES, strict=True)


def test_the_indexed_job_gives_every_pod_its_shard_and_the_merge_finds_them(tmp_path):
    _, grade, merge = _documents()
    spec = grade["spec"]
    container = spec["template"]["spec"]["containers"][0]
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert spec["completionMode"] == "Indexed" and env["JUDGE_SHARD_COUNT"] == str(spec["completions"])
    command = " ".join(container["command"] + container["args"])
    assert "--shard auto" in command
    out = re.search(r'--out "([^"]+)"', command)[1]
    assert out == "/data/graded/shard-$((JOB_COMPLETION_INDEX + 1))"
    fake = tmp_path / "judge"  # the pod's shell line, run with a judge that prints what it was given
    fake.write_text('#!/bin/sh\nprintf "%s\\n" "$@"\n')
    fake.chmod(0o755)
    given = subprocess.run([*container["command"], *container["args"]], capture_output=True, text=True, check=True,
                           env={"PATH": f"{tmp_path}:/usr/bin:/bin", "JOB_COMPLETION_INDEX": "2", **env}).stdout
    assert "--out\n/data/graded/shard-3\n" in given and "--shard\nauto\n" in given
    merged = " ".join(merge["spec"]["template"]["spec"]["containers"][0]["args"])
    assert "judge merge /data/graded/shard-* " in merged
    claims = {v["persistentVolumeClaim"]["claimName"] for job in (grade, merge) for v in job["spec"]["template"]["spec"]["volumes"]}
    assert claims == {_documents()[0]["metadata"]["name"]}


def test_the_dockerfile_installs_this_checkout_with_the_torch_the_project_allows():
    text = (REPO / "Dockerfile").read_text()
    copied = re.findall(r"^COPY (.+) /src/", text, re.M)
    assert {part for line in copied for part in line.split()} == {"pyproject.toml", "README.md", "judge",
                                                                    "judge_bundle", "problems", "solutions"}
    bound = next(d for d in tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
                 if d.startswith("torch"))
    assert f'"torch=={bound.split("<=")[1]}"' in text, "the image pins the newest torch the project allows"
    assert 'ENTRYPOINT ["judge"]' in text


def _grade(class_dir: Path, out: Path, root: Path, env: dict[str, str], **popen: object) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "judge", "grade", SLUG, str(class_dir), "--out", str(out),
                             "--shard", "auto", "--jobs", "1"], env={**judge_env(root), **env},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, **popen)


def _rows(folder: Path) -> list[tuple]:
    summary = json.loads((folder / "summary.json").read_text())
    return sorted((r["student"], r["verdict"], r["passed"], r["total"], r["points"]) for r in summary["students"])


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("scheduler", ["kubernetes", "slurm"])
def test_shards_started_by_a_scheduler_one_killed_and_rerun_merge_into_a_single_run(toy_root, tmp_path, scheduler):
    class_dir = tmp_path / "class"
    class_dir.mkdir()
    for path in sorted((REPO / "problems" / SLUG / "submissions").glob("*/*.py")):
        shutil.copy(path, class_dir / f"{path.parent.name}-{path.stem}.py")
    single = subprocess.run([sys.executable, "-m", "judge", "grade", SLUG, str(class_dir), "--out",
                             str(tmp_path / "single")], env=judge_env(toy_root), capture_output=True, text=True,
                            timeout=1800)
    assert single.returncode == 0, single.stderr
    count = 3

    def variables(k: int) -> dict[str, str]:  # k from 1, as the merged folders are named
        if scheduler == "kubernetes":
            return {"JOB_COMPLETION_INDEX": str(k - 1), "JUDGE_SHARD_COUNT": str(count)}
        return {"SLURM_ARRAY_TASK_ID": str(k), "SLURM_ARRAY_TASK_COUNT": str(count), "SLURM_ARRAY_TASK_MIN": "1"}

    shards = {k: tmp_path / "out" / f"shard-{k}" for k in range(1, count + 1)}
    victim = _grade(class_dir, shards[2], toy_root, variables(2), start_new_session=True)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and not list(shards[2].glob("students/*/results.json")):
        assert victim.poll() is None, victim.stderr.read()
        time.sleep(0.05)
    os.killpg(victim.pid, signal.SIGKILL)  # a pre-empted task: some results saved, no summary
    victim.wait()
    assert not (shards[2] / "summary.json").exists()
    refused = subprocess.run([sys.executable, "-m", "judge", "merge", *map(str, shards.values()), "--out",
                              str(tmp_path / "early")], env=judge_env(toy_root), capture_output=True, text=True)
    assert refused.returncode == 2
    for k in (1, 3, 2):  # the others, then the killed one again: it resumes
        rerun = _grade(class_dir, shards[k], toy_root, variables(k))
        assert rerun.wait(timeout=1800) == 0, rerun.stderr.read()
    merged = subprocess.run([sys.executable, "-m", "judge", "merge", *map(str, shards.values()), "--out",
                             str(tmp_path / "merged")], env=judge_env(toy_root), capture_output=True, text=True)
    assert merged.returncode == 0, merged.stderr
    assert _rows(tmp_path / "merged") == _rows(tmp_path / "single")
    assert sum(len(_rows(folder)) for folder in shards.values()) == len(_rows(tmp_path / "single"))
