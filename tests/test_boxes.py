"""Running inside someone else's box: limits fitted to a container's cgroup, a calibration that survives a fresh
container, and ``--shard auto`` from a scheduler's variables."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge.errors import BadInput
from judge.grading.shard import Shard
from judge.judging import calibrate, limits
from judge.package.problem import find_problem
from judge.settings import CALIBRATION
from judge.worker.cgroup import Box
from tests.support.cgroups import v1_box
from tests.support.cli import SLUG, judge_env
from tests.support.toy import build_toy, mlp_case

MiB = 1 << 20


# -- --shard auto ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("env, shards, shard", [
    ({"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "1"}, "8", "2/8"),
    ({"SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "1"}, "8", "1/8"),
    ({"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "0"}, "8", "1/8"),
    # resubmitted alone (sbatch --array=3): Slurm says COUNT=1, MIN=MAX=3; the count comes from --shards
    ({"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "1", "SLURM_ARRAY_TASK_MIN": "3",
      "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_STEP": "1"}, "3", "1/3"),
    ({"JOB_COMPLETION_INDEX": "0"}, "4", "1/4"),
    ({"JOB_COMPLETION_INDEX": "3"}, "4", "4/4"),
    ({"JOB_COMPLETION_INDEX": "6"}, "4", "3/4"),
    ({"SLURM_ARRAY_TASK_ID": "5", "JOB_COMPLETION_INDEX": "0"}, "4", "2/4"),
])
def test_shard_auto_takes_the_index_from_the_scheduler_and_the_count_from_the_job_file(env, shards, shard):
    assert str(Shard.chosen("auto", shards, env)) == shard


@pytest.mark.parametrize("first", [0, 1, 5, 97])
def test_any_run_of_consecutive_indices_covers_the_class_once(first):
    students = [f"s{i:03}" for i in range(200)]
    shards = [Shard.chosen("auto", "5", {"SLURM_ARRAY_TASK_ID": str(i)}) for i in range(first, first + 5)]
    assert sorted(s for shard in shards for s in students if shard.holds(s)) == students
    rerun = Shard.chosen("auto", "5", {"SLURM_ARRAY_TASK_ID": str(first + 2), "SLURM_ARRAY_TASK_COUNT": "1"})
    assert rerun == shards[2], "a task resubmitted alone judges the shard it judged in the array"


@pytest.mark.parametrize("shard, shards, env, key", [
    ("auto", "3", {}, "no_shard_env"),
    ("auto", None, {"JOB_COMPLETION_INDEX": "2"}, "shard_auto_needs_count"),
    ("auto", None, {"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"}, "shard_auto_needs_count"),
    ("auto", "0", {"JOB_COMPLETION_INDEX": "2"}, "bad_shards"),
    ("auto", " 3", {"JOB_COMPLETION_INDEX": "2"}, "bad_shards"),
    ("auto", "+3", {"JOB_COMPLETION_INDEX": "2"}, "bad_shards"),
    ("auto", "4", {"JOB_COMPLETION_INDEX": "x"}, "bad_shard_env"),
    ("auto", "4", {"JOB_COMPLETION_INDEX": "-1"}, "bad_shard_env"),
    ("auto", "4", {"SLURM_ARRAY_TASK_ID": " 2"}, "bad_shard_env"),
    ("auto", "4", {"SLURM_ARRAY_TASK_ID": "²"}, "bad_shard_env"),
    ("1/2", "2", {}, "shards_without_auto"),
    (None, "2", {}, "shards_without_auto"),
    (" auto", "2", {"JOB_COMPLETION_INDEX": "0"}, "bad_shard"),
])
def test_shard_auto_says_what_is_missing(shard, shards, env, key):
    with pytest.raises(BadInput) as caught:
        Shard.chosen(shard, shards, env)
    assert caught.value.key == key


# -- limits that fit the box ----------------------------------------------------------------------------------


def test_memory_fits_the_box_and_the_wall_stretches_under_a_quota():
    gradescope = Box(768 * MiB, 0.5, "cgroup v2")
    assert limits.fit_memory(1536 * MiB, gradescope, grouped=False) == 768 * MiB - limits.BOX_RESERVE
    assert limits.fit_memory(1536 * MiB, gradescope, grouped=True) == 768 * MiB - limits.BOX_RESERVE_CGROUP
    assert limits.fit_memory(256 * MiB, gradescope, grouped=False) == 256 * MiB, "a limit that fits stays"
    assert limits.fit_memory(1536 * MiB, Box(None, None)) == 1536 * MiB
    assert limits.fit_memory(1536 * MiB, Box(300 * MiB, None), grouped=False) == limits.BOX_MIN_MEMORY
    assert limits.wall_scale(gradescope) == 2.0 and limits.wall_scale(Box(None, 4.0)) == 1.0
    assert limits.wall_scale(Box(None, None)) == 1.0


@pytest.fixture
def gradescope_box():
    """A box like Gradescope's default container: 768 MB and half a CPU (cgroup v1, as root)."""
    made = v1_box(f"judge-test-box-{os.getpid()}", 768 * MiB, 50_000)
    if made is None:
        pytest.skip("needs root and writable cgroup v1 memory and cpu hierarchies")
    yield made
    for folder in made:
        for pid in (folder / "cgroup.procs").read_text().split():
            subprocess.run(["kill", "-9", pid], check=False)
        folder.rmdir()


def _in_box(made: tuple[Path, Path], argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    enter = "; ".join(f"echo $$ > {folder / 'cgroup.procs'}" for folder in made)
    return subprocess.run(["sh", "-c", f"{enter}; exec \"$@\"", "box", *argv], capture_output=True, text=True,
                          env=env, timeout=600)


def test_the_box_is_read_from_the_cgroups_above_the_judge(gradescope_box):
    found = _in_box(gradescope_box, [sys.executable, "-c", "from judge.worker import cgroup; b = cgroup.box();"
                                     "print(b.memory_bytes, b.cpus, b.source)"], dict(os.environ))
    assert found.stdout.split() == [str(768 * MiB), "0.5", "cgroup", "v1"], found.stderr


def test_a_memory_hog_gets_its_verdict_before_the_container_kills_anything(gradescope_box, tmp_path):
    """In a 768 MB box without worker cgroups (Docker's read-only cgroupfs), the worker's limit is lowered so the
    judge's memory_limit_exceeded comes first: the box's own OOM killer never fires, the judge exits 1."""
    root = build_toy(tmp_path / "toy", {"sample/01-small": _small_case(),
                                        "hidden/01-more": _small_case(seed=40)}, 1536)
    hog = tmp_path / "hog.py"
    hog.write_text("import torch\n\nclass Solution:\n    def compute_activation_stats(self, model, x):\n"
                   "        kept = []\n        while True:\n            kept.append(torch.ones(32 << 20))\n\n"
                   "    def compute_gradient_stats(self, model, x, y):\n        return []\n\n"
                   "    def diagnose(self, activation_stats, gradient_stats):\n        return 'healthy'\n")
    env = {**judge_env(root), "JUDGE_CGROUPS": "off"}
    result = _in_box(gradescope_box, [sys.executable, "-m", "judge", "submit", SLUG, str(hog), "--format", "json"],
                     env)
    report = json.loads(result.stdout)
    memory = gradescope_box[0]
    assert result.returncode == 1, result.stderr
    assert report["verdict"] == "memory_limit_exceeded"
    assert {t["extra_data"]["memory_limit_mb"] for t in report["tests"]} == {(768 * MiB - limits.BOX_RESERVE) >> 20}
    oom = dict(line.split() for line in (memory / "memory.oom_control").read_text().splitlines())
    assert oom.get("oom_kill", "0") == "0", "the container's OOM killer fired"
    assert int((memory / "memory.max_usage_in_bytes").read_text()) < 768 * MiB


def _small_case(seed: int = 10) -> dict:
    return mlp_case("a small ReLU MLP", seed, 8)


# -- a calibration that survives a fresh container -------------------------------------------------------------


def test_a_pinned_calibration_is_used_on_another_machine(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path))
    problem = find_problem(SLUG)
    built = {c.id: 0.001 for c in problem.cases}
    monkeypatch.setattr(calibrate, "_measure", lambda p, d, c: built)
    assert calibrate.reference_times(problem, "cpu") is built  # calibrated once, when the image is built
    assert calibrate.calibration(problem, "cpu").builds_checked  # stored here: its checker ran here
    monkeypatch.setattr(calibrate, "_machine", lambda: "another-host")
    monkeypatch.setattr(calibrate, "_measure", lambda p, d, c: pytest.fail("recalibrated on the new host"))
    monkeypatch.setenv(CALIBRATION.name, "pinned")
    assert calibrate.reference_times(problem, "cpu") == built
    assert not calibrate.calibration(problem, "cpu").builds_checked  # this host's workers are still to be checked
    monkeypatch.setenv(CALIBRATION.name, "machine")
    with pytest.raises(pytest.fail.Exception):
        calibrate.reference_times(problem, "cpu")
    monkeypatch.setenv(CALIBRATION.name, "sometimes")
    with pytest.raises(BadInput):
        calibrate.reference_times(problem, "cpu")


def test_a_changed_problem_is_never_taken_from_a_pinned_calibration(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path))
    monkeypatch.setenv(CALIBRATION.name, "pinned")
    problem = find_problem(SLUG)
    monkeypatch.setattr(calibrate, "_measure", lambda p, d, c: {c.id: 0.5 for c in p.cases})
    calibrate.reference_times(problem, "cpu")
    parts = calibrate._parts
    monkeypatch.setattr(calibrate, "_parts", lambda p, d: [*parts(p, d), "an edited case"])
    monkeypatch.setattr(calibrate, "_measure", lambda p, d, c: {c.id: 0.25 for c in p.cases})
    assert set(calibrate.reference_times(problem, "cpu").values()) == {0.25}
    assert len(list(tmp_path.glob(f"{SLUG}-cpu-*.json"))) == 2
