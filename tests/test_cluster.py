"""Grading on a cluster: the container image definition, the Kubernetes steps in ``deploy/kubernetes/``, and
shards started the way Slurm and Kubernetes start them (``--shard auto --shards N``), one killed and started
again, merged into one class.

Every manifest is checked in strict mode (a misspelt field fails) against the Kubernetes API schema of each
release the docs claim (1.29, where ``backoffLimitPerIndex`` is on by default, and every later one
``kubernetes-validate`` bundles: a test-only dependency carrying the official schemas, so no cluster and no
network is needed).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.support.cli import REPO, SLUG, judge_env

STEPS = REPO / "deploy" / "kubernetes"
OLDEST = (1, 29)
"""the oldest Kubernetes the steps claim (docs/clusters.md): backoffLimitPerIndex is beta and on from 1.29"""


def _manifests() -> dict[str, dict]:
    yaml = pytest.importorskip("yaml")
    return {path.name: yaml.safe_load(path.read_text()) for path in sorted(STEPS.glob("*.yaml"))}


def _claimed_versions() -> list[str]:
    """Every release from :data:`OLDEST` on whose schema ``kubernetes-validate`` bundles (none without it)."""
    try:
        from kubernetes_validate.utils import all_versions
    except ImportError:
        return []
    return sorted({v for v in all_versions() if tuple(map(int, v.split(".")[:2])) >= OLDEST},
                  key=lambda v: tuple(map(int, v.split("."))))


CLAIMED = _claimed_versions()


def test_the_steps_come_in_the_order_the_docs_give_them():
    kinds = [(name, m["kind"]) for name, m in _manifests().items()]
    assert kinds == [("0-namespace.yaml", "Namespace"), ("1-claim.yaml", "PersistentVolumeClaim"),
                     ("2-files-pod.yaml", "Pod"), ("3-grade-job.yaml", "Job"), ("4-merge-job.yaml", "Job")]
    docs = (REPO / "docs" / "clusters.md").read_text()
    applied = re.findall(r"kubectl apply -f deploy/kubernetes/(\S+)", docs)
    assert applied == [name for name, _ in kinds], "the docs apply every step once, in order"


def test_the_schemas_of_the_oldest_claimed_kubernetes_are_here():
    pytest.importorskip("kubernetes_validate")
    assert CLAIMED[0] == f"{OLDEST[0]}.{OLDEST[1]}.0" and len(CLAIMED) > 1


@pytest.mark.parametrize("version", CLAIMED)
def test_every_manifest_is_valid_for_every_kubernetes_the_docs_claim(version):
    validate = pytest.importorskip("kubernetes_validate")
    for manifest in _manifests().values():
        validate.validate(manifest, version, strict=True)
    grade = _manifests()["3-grade-job.yaml"]
    broken = {**grade, "spec": {**grade["spec"], "backoffLimitPerIdx": 2}}
    with pytest.raises(validate.ValidationError):
        validate.validate(broken, version, strict=True)


def test_an_older_kubernetes_does_not_know_the_per_index_retries():
    """Why the docs claim 1.29 and no older: 1.27 refuses backoffLimitPerIndex outright (1.28 has it off)."""
    validate = pytest.importorskip("kubernetes_validate")
    with pytest.raises(validate.ValidationError):
        validate.validate(_manifests()["3-grade-job.yaml"], "1.27.0", strict=True)


def _pods() -> dict[str, dict]:
    """Each step's pod spec: the Pod's own, or the Job's template."""
    return {name: m["spec"] if m["kind"] == "Pod" else m["spec"]["template"]["spec"]
            for name, m in _manifests().items() if m["kind"] in ("Pod", "Job")}


def test_every_pod_meets_the_restricted_pod_security_standard():
    assert _manifests()["0-namespace.yaml"]["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"
    for name, pod in _pods().items():
        context = pod["securityContext"]
        assert context["runAsNonRoot"] is True and context["runAsUser"] > 0 and context["runAsGroup"] > 0, name
        assert context["seccompProfile"]["type"] in ("RuntimeDefault", "Localhost"), name
        assert not {"hostNetwork", "hostPID", "hostIPC", "hostUsers"} & pod.keys(), name
        assert all(set(v) <= {"name", "persistentVolumeClaim"} for v in pod["volumes"]), name
        for container in pod["containers"]:
            own = container["securityContext"]
            assert own["allowPrivilegeEscalation"] is False and own["capabilities"]["drop"] == ["ALL"], name
            assert not {"privileged", "runAsUser", "procMount", "seccompProfile"} & own.keys(), name
            assert "add" not in own["capabilities"], name
            assert container["resources"]["limits"], f"{name}: a pod without limits can starve the node"


def test_the_claim_names_a_storage_class_to_set():
    claim = _manifests()["1-claim.yaml"]
    assert claim["spec"]["accessModes"] == ["ReadWriteMany"] and claim["spec"]["storageClassName"]
    assert "storageClassName" in (REPO / "docs" / "clusters.md").read_text()
    names = {v["persistentVolumeClaim"]["claimName"] for pod in _pods().values() for v in pod["volumes"]}
    assert names == {claim["metadata"]["name"]}
    namespace = _manifests()["0-namespace.yaml"]["metadata"]["name"]
    assert {m["metadata"]["namespace"] for m in _manifests().values() if m["kind"] != "Namespace"} == {namespace}


def _fake_judge(folder: Path) -> Path:
    """A ``judge`` that prints each argument it was given on a line of its own."""
    fake = folder / "judge"
    fake.write_text('#!/bin/sh\nprintf "%s\\n" "$@"\n')
    fake.chmod(0o755)
    return folder


def _container(name: str) -> dict:
    return _pods()[name]["containers"][0]


def _environment(container: dict) -> dict[str, str]:
    return {e["name"]: e["value"] for e in container.get("env", [])}


def test_the_indexed_job_gives_every_pod_its_shard_and_the_merge_finds_them(tmp_path):
    spec = _manifests()["3-grade-job.yaml"]["spec"]
    container = _container("3-grade-job.yaml")
    assert spec["completionMode"] == "Indexed"
    assert re.search(rf"--shard auto --shards {spec['completions']}\b", " ".join(container["args"]))
    given = subprocess.run([*container["command"], *container["args"]], capture_output=True, text=True, check=True,
                           env={"PATH": f"{_fake_judge(tmp_path)}:/usr/bin:/bin", "JOB_COMPLETION_INDEX": "2",
                                **_environment(container)}).stdout
    assert "--out\n/data/graded/task-2\n" in given and "--shard\nauto\n--shards\n8\n" in given
    env = _environment(container)
    assert env["JUDGE_PROBLEMS"].startswith("/data/") and env["JUDGE_SOLUTIONS"].startswith("/data/")
    merged = " ".join(_container("4-merge-job.yaml")["args"])
    assert "judge merge /data/graded/task-* --out /data/graded/all" in merged


def test_the_merge_runs_once_and_fails_fast():
    spec = _manifests()["4-merge-job.yaml"]["spec"]
    assert spec["backoffLimit"] == 0 and 0 < spec["activeDeadlineSeconds"] <= 900
    assert "until" not in " ".join(_container("4-merge-job.yaml")["args"]), "no waiting loop: it runs after step 3"


def test_an_empty_volume_fails_the_grading_job_once_with_one_line(tmp_path, toy_root):
    """The pod's own command, run with the real judge on an empty volume: exit status 2 and one line saying what
    is missing, and that status fails the whole Job at once (podFailurePolicy) instead of every index retrying."""
    spec = _manifests()["3-grade-job.yaml"]["spec"]
    container = _container("3-grade-job.yaml")
    fails_job = [r for r in spec["podFailurePolicy"]["rules"] if r["action"] == "FailJob"]
    assert fails_job == [{"action": "FailJob", "onExitCodes": {"containerName": container["name"],
                                                                "operator": "In", "values": [2]}}]
    volume = tmp_path / "data"
    volume.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "judge").write_text(f'#!/bin/sh\nexec {sys.executable} -m judge "$@"\n')
    (bin_dir / "judge").chmod(0o755)
    args = [a.replace("/data", str(volume)) for a in container["args"]]
    env = {**judge_env(None), "PATH": f"{bin_dir}:/usr/bin:/bin", "JOB_COMPLETION_INDEX": "0",
           **{k: v.replace("/data", str(volume)) for k, v in _environment(container).items()}}
    for missing in ("problems", "submissions"):  # an empty volume, then one with the problem but no class
        ran = subprocess.run([*container["command"], *args], capture_output=True, text=True, env=env, timeout=300)
        assert ran.returncode == 2 and ran.stderr.count("\n") == 1, ran.stderr
        assert str(volume / missing) in ran.stderr and "Traceback" not in ran.stderr
        for folder in ("problems", "solutions"):
            shutil.copytree(toy_root / folder, volume / folder, dirs_exist_ok=True)


def _copied(dockerfile: str) -> set[str]:
    return {part for line in re.findall(r"^COPY (.+) \S+$", dockerfile, re.M) for part in line.split()}


def test_the_image_copies_the_judge_and_its_lock_and_nothing_secret():
    text = (REPO / "Dockerfile").read_text()
    assert _copied(text) == {"requirements.lock", "pyproject.toml", "README.md", "LICENSE", "judge",
                             "judge_bundle/__init__.py"}
    assert re.search(r"^FROM python:3\.11-slim-bookworm@sha256:[0-9a-f]{64}$", text, re.M), "the base pinned by digest"
    assert re.search(r"pip install .*-r /tmp/requirements\.lock", text)
    assert re.search(r"pip install --no-cache-dir --no-deps /src && pip check", text), "nothing unpinned comes in"
    assert 'ENTRYPOINT ["judge"]' in text
    ignored = (REPO / ".dockerignore").read_text().split()
    kept = {line[1:] for line in ignored if line.startswith("!")}
    assert ignored[ignored.index("*")] == "*" and kept == _copied(text), "the build context holds what is copied"


def _lock() -> dict[str, str]:
    lines = [line for line in (REPO / "requirements.lock").read_text().splitlines() if not line.startswith("#")]
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+==[A-Za-z0-9.+!-]+", line) for line in lines), lines
    return {line.split("==")[0].lower().replace("_", "-"): line.split("==")[1] for line in lines}


def test_the_lock_pins_every_dependency_within_what_the_project_allows():
    requirements = pytest.importorskip("packaging.requirements")
    lock = _lock()
    for text in tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]:
        wanted = requirements.Requirement(text)
        if wanted.marker and not wanted.marker.evaluate():  # tomli, for Python 3.10: the image's is 3.11
            continue
        pinned = lock[wanted.name.lower()]
        assert wanted.specifier.contains(pinned.split("+")[0], prereleases=True), (text, pinned)
    bound = next(d for d in tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
                 if d.startswith("torch"))
    assert lock["torch"] == f"{bound.split('<=')[1]}+cpu", "the image takes the newest torch, CPU build"
    from importlib import metadata

    for name, version in lock.items():  # what a locked package needs is locked too (where installed as locked)
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        if dist.version != version:
            continue
        for text in dist.requires or []:
            need = requirements.Requirement(text)
            if not need.marker or need.marker.evaluate({"extra": ""}):
                assert need.name.lower().replace("_", "-") in lock, f"{name} needs {need.name}"


def _secrets() -> set[str]:
    """The sha256 of every hidden case and reference solution of the repository."""
    files = [*REPO.glob("problems/*/cases/hidden/**/*"), *REPO.glob("solutions/*")]
    return {hashlib.sha256(f.read_bytes()).hexdigest() for f in files if f.is_file()}


@pytest.mark.timeout(600)
def test_the_judge_the_image_installs_holds_no_hidden_case_and_reads_problems_from_a_volume(tmp_path):
    """What the Dockerfile's ``pip install /src`` installs, built here from exactly the files it copies: no hidden
    case, no reference solution; the problem then comes from JUDGE_PROBLEMS and JUDGE_SOLUTIONS."""
    context = tmp_path / "src"
    for source in _copied((REPO / "Dockerfile").read_text()) - {"requirements.lock"}:
        target = context / source
        target.parent.mkdir(parents=True, exist_ok=True)
        if (REPO / source).is_dir():
            shutil.copytree(REPO / source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(REPO / source, target)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                            "--no-index", "-w", str(tmp_path / "wheel"), str(context)], capture_output=True, text=True,
                           timeout=500)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        held = {hashlib.sha256(archive.read(n)).hexdigest() for n in names}
        archive.extractall(tmp_path / "site")
    assert [n for n in names if n.startswith("judge_bundle/")] == ["judge_bundle/__init__.py"]
    assert not held & _secrets(), "a hidden case or a reference solution is in the image's judge"
    found = subprocess.run(
        [sys.executable, "-c", "import judge; from judge.package.problem import find_problem as f; "
         f"p = f({SLUG!r}); print(judge.__file__, p.root, p.reference, sep='\\n')"],
        env={**os.environ, "PYTHONPATH": str(tmp_path / "site"), "JUDGE_PROBLEMS": str(REPO / "problems"),
             "JUDGE_SOLUTIONS": str(REPO / "solutions")}, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert found.returncode == 0, found.stderr
    assert found.stdout.split() == [str(tmp_path / "site" / "judge" / "__init__.py"), str(REPO / "problems" / SLUG),
                                    str(REPO / "solutions" / f"{SLUG}.py")]


def _grade(class_dir: Path, out: Path, root: Path, env: dict[str, str], shards: int,
           **popen: object) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "judge", "grade", SLUG, str(class_dir), "--out", str(out),
                             "--shard", "auto", "--shards", str(shards), "--jobs", "1"],
                            env={**judge_env(root), **env}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, **popen)


def _rows(folder: Path) -> list[tuple]:
    summary = json.loads((folder / "summary.json").read_text())
    return sorted((r["student"], r["verdict"], r["passed"], r["total"], r["points"]) for r in summary["students"])


def _task(scheduler: str, index: int, array: range) -> dict[str, str]:
    """The variables a task of ``array`` sees: Slurm's as ``sbatch --array=FIRST-LAST`` sets them (a task
    resubmitted alone is an array of one: COUNT=1, MIN=MAX=its index), or a Kubernetes Indexed Job pod's."""
    if scheduler == "kubernetes":
        return {"JOB_COMPLETION_INDEX": str(index)}
    return {"SLURM_ARRAY_TASK_ID": str(index), "SLURM_ARRAY_TASK_COUNT": str(len(array)),
            "SLURM_ARRAY_TASK_MIN": str(array[0]), "SLURM_ARRAY_TASK_MAX": str(array[-1]),
            "SLURM_ARRAY_TASK_STEP": "1", "SLURM_ARRAY_JOB_ID": "41"}


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("scheduler", ["kubernetes", "slurm"])
def test_shards_started_by_a_scheduler_one_killed_and_rerun_merge_into_a_single_run(toy_root, tmp_path, scheduler):
    """Three tasks (Slurm's --array=1-3, Kubernetes' indices 0-2), the second killed mid-way and started again
    alone, as an admin resubmits it (sbatch --array=2: Slurm then says COUNT=1): the merge equals one run."""
    class_dir = tmp_path / "class"
    class_dir.mkdir()
    for path in sorted((REPO / "problems" / SLUG / "submissions").glob("*/*.py")):
        shutil.copy(path, class_dir / f"{path.parent.name}-{path.stem}.py")
    single = subprocess.run([sys.executable, "-m", "judge", "grade", SLUG, str(class_dir), "--out",
                             str(tmp_path / "single")], env=judge_env(toy_root), capture_output=True, text=True,
                            timeout=1800)
    assert single.returncode == 0, single.stderr
    count = 3
    array = range(0, count) if scheduler == "kubernetes" else range(1, count + 1)
    tasks = {i: tmp_path / "out" / f"task-{i}" for i in array}
    victim_index = array[1]
    victim = _grade(class_dir, tasks[victim_index], toy_root, _task(scheduler, victim_index, array), count,
                    start_new_session=True)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and not list(tasks[victim_index].glob("students/*/results.json")):
        assert victim.poll() is None, victim.stderr.read()
        time.sleep(0.05)
    os.killpg(victim.pid, signal.SIGKILL)  # a pre-empted task: some results saved, no summary
    victim.wait()
    assert not (tasks[victim_index] / "summary.json").exists()
    refused = subprocess.run([sys.executable, "-m", "judge", "merge", *map(str, tasks.values()), "--out",
                              str(tmp_path / "early")], env=judge_env(toy_root), capture_output=True, text=True)
    assert refused.returncode == 2
    for index in (array[0], array[2]):
        rerun = _grade(class_dir, tasks[index], toy_root, _task(scheduler, index, array), count)
        assert rerun.wait(timeout=1800) == 0, rerun.stderr.read()
    alone = range(victim_index, victim_index + 1)  # resubmitted by itself: it resumes its own shard
    rerun = _grade(class_dir, tasks[victim_index], toy_root, _task(scheduler, victim_index, alone), count)
    assert rerun.wait(timeout=1800) == 0, rerun.stderr.read()
    shards = {json.loads((folder / "summary.json").read_text())["shard"] for folder in tasks.values()}
    assert shards == {f"{k}/{count}" for k in range(1, count + 1)}
    merged = subprocess.run([sys.executable, "-m", "judge", "merge", *map(str, tasks.values()), "--out",
                             str(tmp_path / "merged")], env=judge_env(toy_root), capture_output=True, text=True)
    assert merged.returncode == 0, merged.stderr
    assert _rows(tmp_path / "merged") == _rows(tmp_path / "single")
    assert sum(len(_rows(folder)) for folder in tasks.values()) == len(_rows(tmp_path / "single"))
