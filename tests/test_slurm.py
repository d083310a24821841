"""The Slurm recipe of ``docs/clusters.md``, run as written on a real single-node Slurm: Debian's ``slurmctld``,
``slurmd`` and ``munge``, installed from apt where missing, started by the test on ports and files of its own,
and stopped after it.

The job file and the merge line are taken from the docs verbatim; only ``$HOME`` points at a folder whose
``torch-judge/.venv/bin/judge`` runs this checkout's judge. One task is cancelled before it starts (the array is
submitted held, so which one is certain), the merge submitted with the array then never starts, and the task
resubmitted alone (``sbatch --array=3``, where Slurm says ``SLURM_ARRAY_TASK_COUNT=1``) and a new merge must give
the class summary of one ``judge grade``. Skipped, with the reason, where Slurm cannot be installed or started.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from tests.support.cli import REPO, SLUG, judge_env

pytestmark = pytest.mark.slow
DAEMONS = ("munged", "slurmctld", "slurmd", "sbatch")


def _installed() -> str | None:
    """None when Slurm and munge are here (installing them from apt if needed), else why not."""
    if all(shutil.which(d) for d in DAEMONS):
        return None
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return "Slurm is not installed and apt-get cannot install it here (not root, or no apt)"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "--no-install-recommends",
                                                   "slurmctld", "slurmd", "slurm-client", "munge"]):
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
        if done.returncode:
            return f"{' '.join(command[:2])} failed: {done.stderr.strip()[-300:]}"
    return None if all(shutil.which(d) for d in DAEMONS) else "apt installed Slurm, but not its daemons"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _config(folder: Path, host: str) -> str:
    ports = _free_port(), _free_port()
    return "\n".join([
        "ClusterName=judgetest", f"SlurmctldHost={host}", f"SlurmctldPort={ports[0]}", f"SlurmdPort={ports[1]}",
        "SlurmUser=root", "SlurmdUser=root", "AuthType=auth/munge", "CredType=cred/munge",
        f"AuthInfo=socket={folder}/munge.socket", f"StateSaveLocation={folder}/state",
        f"SlurmdSpoolDir={folder}/spool", f"SlurmctldPidFile={folder}/slurmctld.pid",
        f"SlurmdPidFile={folder}/slurmd.pid", f"SlurmctldLogFile={folder}/slurmctld.log",
        f"SlurmdLogFile={folder}/slurmd.log", "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
        "JobAcctGatherType=jobacct_gather/none", "AccountingStorageType=accounting_storage/none",
        "JobCompType=jobcomp/none", "MpiDefault=none", "SchedulerType=sched/builtin",
        "SelectType=select/cons_tres", "SelectTypeParameters=CR_CPU_Memory", "ReturnToService=2",
        f"NodeName={host} CPUs=2 RealMemory=8000 State=UNKNOWN",
        "PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP", ""])


def _wait(predicate, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(1)


@pytest.fixture
def slurm(tmp_path_factory) -> Iterator[dict[str, str]]:
    """A running single-node Slurm: the environment its commands need (``SLURM_CONF``)."""
    why = _installed()
    if why:
        pytest.skip(why)
    if (os.cpu_count() or 1) < 2:
        pytest.skip("the docs' job asks for 2 CPUs per task; this machine has fewer")
    folder = tmp_path_factory.mktemp("slurm")
    folder.chmod(0o755)  # munge wants its socket's folders searchable by all
    for sub in ("state", "spool"):
        (folder / sub).mkdir()
    (folder / "munge.key").write_bytes(os.urandom(1024))
    (folder / "munge.key").chmod(0o400)
    host = socket.gethostname().split(".")[0]
    (folder / "slurm.conf").write_text(_config(folder, host))
    env = {**os.environ, "SLURM_CONF": str(folder / "slurm.conf")}
    started: list[subprocess.Popen] = []
    log = open(folder / "daemons.log", "w")
    try:
        started.append(subprocess.Popen(
            ["munged", "--foreground", "--force", f"--socket={folder}/munge.socket", f"--key-file={folder}/munge.key",
             f"--pid-file={folder}/munged.pid", f"--seed-file={folder}/munged.seed",
             f"--log-file={folder}/munged.log"], stdout=log, stderr=subprocess.STDOUT))
        _wait(lambda: (folder / "munge.socket").exists(), 30, "munged did not start")
        for daemon in ("slurmctld", "slurmd"):
            started.append(subprocess.Popen([daemon, "-D", "-f", str(folder / "slurm.conf")], env=env, stdout=log,
                                            stderr=subprocess.STDOUT))

        def idle() -> bool:
            state = subprocess.run(["sinfo", "-h", "-o", "%T"], env=env, capture_output=True, text=True)
            return state.stdout.strip() == "idle"

        _wait(idle, 90, "the node did not come up idle")
    except (OSError, TimeoutError) as exc:
        for proc in started:
            proc.terminate()
        pytest.skip(f"Slurm could not start here: {exc} ({(folder / 'daemons.log').read_text()[-300:]})")
    try:
        yield env
    finally:
        for proc in reversed(started):  # only the daemons this fixture started, by their own process
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


def _recipe() -> tuple[str, str]:
    """The docs' job file and their merge line, as written."""
    docs = (REPO / "docs" / "clusters.md").read_text()
    job = re.search(r"```bash\n(#!/bin/bash\n# grade\.sbatch.*?)```", docs, re.S)[1]
    merge = re.search(r"^sbatch --dependency=afterok:\$jid --wrap .*$", docs, re.M)[0]
    return job, merge


def _run(command: list[str], env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (command, done.stderr)
    return done.stdout.strip()


def _queued(job: str, env: dict[str, str], cwd: Path) -> list[str]:
    """``STATE REASON`` of each of the job's tasks still in the queue (none once Slurm has forgotten the job)."""
    listed = subprocess.run(["squeue", "-h", "-j", job, "-o", "%T %r"], env=env, cwd=cwd, capture_output=True,
                            text=True, timeout=120)
    return listed.stdout.split("\n")[:-1] if listed.returncode == 0 else []


def _rows(folder: Path) -> list[tuple]:
    summary = json.loads((folder / "summary.json").read_text())
    return sorted((r["student"], r["verdict"], r["passed"], r["total"], r["points"]) for r in summary["students"])


@pytest.mark.timeout(3600)
def test_the_docs_slurm_recipe_with_a_task_resubmitted_alone_merges_into_one_run(slurm, toy_root, tmp_path):
    job, merge = _recipe()
    count = int(re.search(r"--shards (\d+)", job)[1])
    assert re.search(rf"^#SBATCH --array=1-{count}$", job, re.M), "the array and --shards agree"
    work = tmp_path / "course"
    (work / "submissions").mkdir(parents=True)
    for path in sorted((REPO / "problems" / SLUG / "submissions").glob("*/*.py")):
        shutil.copy(path, work / "submissions" / f"{path.parent.name}-{path.stem}.py")
    (work / "grade.sbatch").write_text(job)
    judge = tmp_path / "home" / "torch-judge" / ".venv" / "bin" / "judge"
    judge.parent.mkdir(parents=True)
    judge.write_text(f'#!/bin/sh\nexec {sys.executable} -m judge "$@"\n')
    judge.chmod(0o755)
    env = {**judge_env(toy_root), **slurm, "HOME": str(tmp_path / "home"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    single = subprocess.run([str(judge), "grade", SLUG, "submissions", "--out", str(tmp_path / "single")],
                            env=env, cwd=work, capture_output=True, text=True, timeout=1800)
    assert single.returncode == 0, single.stderr

    first = _run(["sbatch", "--parsable", "--hold", "grade.sbatch"], env, work)  # held: task 3 goes before it runs
    _run(["scancel", f"{first}_3"], env, work)
    _run(["scontrol", "release", first], env, work)
    stuck = _run(["bash", "-c", merge], {**env, "jid": first}, work).split()[-1]  # "Submitted batch job N"
    _wait(lambda: not _queued(first, env, work), 1800, "the array did not finish")
    _wait(lambda: _queued(stuck, env, work) == ["PENDING DependencyNeverSatisfied"], 300,
          "the merge submitted with the array is not left DependencyNeverSatisfied, as the docs say")
    done = {k for k in range(1, count + 1) if (work / "graded" / f"task-{k}" / "summary.json").exists()}
    assert done == set(range(1, count + 1)) - {3}

    _run(["scancel", stuck], env, work)
    again = _run(["sbatch", "--parsable", "--array=3", "grade.sbatch"], env, work)
    merged = _run(["bash", "-c", merge], {**env, "jid": again}, work).split()[-1]
    _wait(lambda: not _queued(merged, env, work), 1800, "the merge did not finish")
    shard = json.loads((work / "graded" / "task-3" / "summary.json").read_text())["shard"]
    assert shard == f"{3 % count + 1}/{count}", "the task resubmitted alone judged its own shard"
    assert (work / "graded" / "all" / "summary.json").exists(), (work / f"slurm-{merged}.out").read_text()
    assert _rows(work / "graded" / "all") == _rows(tmp_path / "single")
