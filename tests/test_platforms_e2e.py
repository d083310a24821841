"""The exported autograders end to end, as the platforms run them (slow: ``setup.sh`` installs torch).

Each test unpacks an export into fresh folders seen at the platform's own paths (``/autograder``; ``/grade`` and
the image's ``/opt/torch-judge``) in a private mount namespace, runs ``setup.sh`` (a fresh venv, the exported
wheel, torch, ``judge doctor``, the calibration), then runs the platform's script for every declared submission
of every exported problem, each in a box like the platform's container (a cgroup with its memory and CPU quota;
no cgroups for the judge's workers, as under Docker's read-only cgroupfs), and checks each ``results.json``
against the JSON Schema transcribed from the platform's documentation, its scores against the declared verdicts,
the hidden cases' visibility, a hostile submission that forges its results, and a run killed mid-way.

``JUDGE_E2E_PROBLEMS`` picks the problems (default one, ``dead-relu-detector``; several, separated by spaces, make
a Gradescope autograder of several problems, one file each; ``all`` for every bundled one); ``JUDGE_E2E_FIGURES``
names a JSON file for the measured figures (set-up time, time per submission, the box's memory peak).
``JUDGE_TORCH_INDEX`` is left empty, so torch comes from pip's own configuration (a local wheel here).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import statistics
import subprocess
import time
import zipfile
from pathlib import Path
from typing import Iterator

import jsonschema
import pytest

from judge.judging.verdict import Verdict, overall
from judge.package.problem import available, find_problem
from tests.support.cli import REFERENCE_SOURCE, run_judge
from tests.support.schemas import schema
from tests.support.cgroups import v1_box
from tests.support.platforms import build_image_source

pytestmark = [pytest.mark.slow, pytest.mark.timeout(7200)]
MiB = 1 << 20
BOXES = {"gradescope": (768 * MiB, 0.5), "prairielearn": (2048 * MiB, 0.9)}
"""each platform's default container: Gradescope 768 MB and half a vCPU (docs/troubleshooting.md), PrairieLearn's
grader hosts 2 GiB and 0.9 CPU per job (apps/grader-host/src/lib/config.ts)"""


def problems() -> list[str]:
    chosen = os.environ.get("JUDGE_E2E_PROBLEMS", "dead-relu-detector")
    return available() if chosen == "all" else chosen.split()


@pytest.fixture(scope="module", autouse=True)
def as_root_with_namespaces():
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare(1) for private mount namespaces")


@pytest.fixture
def mount_points() -> Iterator[None]:
    """The platforms' own paths exist as empty mount points (made here, and removed, where the machine has none)."""
    made = [Path(p) for p in ("/autograder", "/grade", "/opt/torch-judge") if not Path(p).exists()]
    for path in made:
        path.mkdir(parents=True)
    yield
    for path in made:
        path.rmdir()


class Box:
    """A container's limits: a v1 memory and cpu cgroup that every command of a platform runs in."""

    def __init__(self, name: str, memory: int, cpus: float):
        made = v1_box(f"judge-e2e-{name}-{os.getpid()}", memory, int(cpus * 100_000))
        if made is None:
            pytest.skip("needs writable cgroup v1 memory and cpu hierarchies for the container's box")
        self.memory, self.cpu = made
        self.limit = memory

    def run(self, binds: dict[str, Path], command: str, env: dict[str, str], timeout: float = 1800,
            background: bool = False, boxed: bool = True) -> subprocess.CompletedProcess | subprocess.Popen:
        """``command`` in a private mount namespace where each ``binds`` target shows its folder, in the box
        (``boxed``; an image's build step is not: the platform's limits are its containers')."""
        enter = [f"echo $$ > {d / 'cgroup.procs'}" for d in (self.memory, self.cpu)] if boxed else []
        mounts = [f"mount --bind {source} {target}" for target, source in binds.items()]
        argv = ["unshare", "--mount", "--propagation", "private", "sh", "-c", " && ".join(enter + mounts + [command])]
        if background:
            return subprocess.Popen(argv, env=env, start_new_session=True, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT)
        return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout)

    def reset_peak(self) -> None:
        (self.memory / "memory.max_usage_in_bytes").write_text("0")

    def peak(self) -> int:
        return int((self.memory / "memory.max_usage_in_bytes").read_text())

    def oom_kills(self) -> int:
        return int(dict(line.split() for line in (self.memory / "memory.oom_control").read_text().splitlines())
                   .get("oom_kill", 0))

    def close(self) -> None:
        deadline = time.monotonic() + 30
        for folder in (self.memory, self.cpu):
            while True:  # a killed process leaves its group a moment after the signal
                for pid in (folder / "cgroup.procs").read_text().split():
                    os.kill(int(pid), signal.SIGKILL)
                try:
                    folder.rmdir()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)


def platform_env() -> dict[str, str]:
    """What a platform's container has: no JUDGE_* of the test session, torch from pip's configuration, and no
    cgroup for the judge's workers (Docker mounts the cgroup file system read-only)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUDGE_", "PYTHON", "VIRTUAL_ENV"))}
    return {**env, "JUDGE_TORCH_INDEX": "", "JUDGE_CGROUPS": "off", "HOME": "/root"}


def log(ran: subprocess.CompletedProcess) -> str:
    """A command's output for an assertion message, without pip's notes about the local package mirror."""
    lines = [line for line in (ran.stdout + ran.stderr).splitlines() if not line.startswith("WARNING: Location")]
    return "\n".join(lines[:40] + ["..."] + lines[-40:])


def declared(slugs: list[str]) -> list[tuple[str, Path, str]]:
    return [(slug, s.path, s.verdict) for slug in slugs for s in find_problem(slug).declared_submissions()]


def problem_tests(results: dict, slug: str, several: bool) -> list[dict]:
    return [t for t in results["tests"] if not several or slug in t["tags"]]


def check_scores(tests: list[dict], verdict: str, points: float, visibility: str | None) -> None:
    """The declared verdict is the first failing case's; each hidden case earns its share exactly when passed."""
    found = overall([Verdict(t["extra_data"]["verdict"]) if t["extra_data"]["verdict"] else None for t in tests])
    assert found.value == verdict
    hidden = [t for t in tests if "hidden" in t["tags"]]
    share = points / len(hidden)
    for test in tests:
        earned = share if "hidden" in test["tags"] and test["status"] == "passed" else 0.0
        assert test["score"] == pytest.approx(earned) and test["status"] == (
            "passed" if test["extra_data"]["verdict"] == "accepted" else "failed")
    if visibility:
        assert {t["visibility"] for t in hidden} == {visibility}
    if verdict == "accepted":
        assert sum(t["score"] for t in tests) == pytest.approx(points)


def figures(platform: str, setup_s: float, times: list[float], peaks: list[int], limit: int) -> dict:
    found = {"platform": platform, "setup_s": round(setup_s, 1), "submissions": len(times),
             "per_submission_s": {"median": round(statistics.median(times), 2), "max": round(max(times), 2)},
             "box_peak_mib": {"median": round(statistics.median(peaks) / MiB), "max": round(max(peaks) / MiB)},
             "box_limit_mib": limit // MiB}
    target = os.environ.get("JUDGE_E2E_FIGURES")
    if target:
        saved = json.loads(Path(target).read_text()) if Path(target).exists() else {}
        Path(target).write_text(json.dumps({**saved, platform: found}, indent=1))
    print(json.dumps(found))
    return found


FORGER = REFERENCE_SOURCE + '''

import glob, os
FORGED = '{"score": 1000.0, "output": "forged", "tests": []}'
for target in ["/autograder/results/results.json", "/grade/results/results.json"]:
    for attack in (lambda: open(target, "w").write(FORGED), lambda: os.unlink(target),
                   lambda: open(target + ".tmp", "w").write(FORGED), lambda: os.replace(target + ".tmp", target)):
        try:
            attack()
        except OSError:
            pass
'''


def kill_mid_run(box: Box, binds: dict[str, Path], command: str, results: Path) -> dict:
    """Start ``command``, SIGKILL it once the judge has judged a case, and return what the results file holds."""
    process = box.run(binds, command, platform_env(), background=True)
    deadline = time.monotonic() + 600
    try:
        while time.monotonic() < deadline and process.poll() is None:
            if results.exists() and "The judge did not finish: 0 of" not in results.read_text() and \
                    "did not finish" in results.read_text():
                break
            time.sleep(0.02)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    return json.loads(results.read_text())


def test_gradescope_autograder_end_to_end(tmp_path, mount_points):
    slugs, visibility = problems(), "after_published"
    zipped = tmp_path / "autograder.zip"
    exported = run_judge(["export", "gradescope", *slugs, "--out", str(zipped), "--hidden-visibility", visibility])
    assert exported.returncode == 0, exported.stderr
    root = tmp_path / "autograder"
    with zipfile.ZipFile(zipped) as archive:
        archive.extractall(root / "source")
    for name in ("setup.sh", "run_autograder"):  # zipfile keeps no modes; Gradescope's unpacking does
        (root / "source" / name).chmod(0o755)
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    box = Box("gradescope", *BOXES["gradescope"])
    binds = {"/autograder": root}
    try:
        started = time.monotonic()
        setup = box.run(binds, "cd /autograder/source && bash ./setup.sh", platform_env(), boxed=False)
        setup_s = time.monotonic() - started
        assert setup.returncode == 0, log(setup)
        assert "security level, judge run / submit: L" in setup.stdout
        points = {e["slug"]: e["points"] for e in json.loads((root / "source" / "export.json").read_text())["problems"]}
        times, peaks, several = [], [], len(slugs) > 1
        validator = jsonschema.Draft7Validator(schema("gradescope-results"))
        for slug, path, verdict in declared(slugs):
            shutil.rmtree(root / "submission", ignore_errors=True)
            shutil.rmtree(root / "results", ignore_errors=True)
            (root / "submission").mkdir()
            shutil.copy(path, root / "submission" / (f"{slug}.py" if several else path.name))
            box.reset_peak()
            started = time.monotonic()
            ran = box.run(binds, "cd /autograder && ./run_autograder", platform_env())
            times.append(time.monotonic() - started)
            peaks.append(box.peak())
            results = json.loads((root / "results" / "results.json").read_text())
            validator.validate(results)
            assert ran.returncode == 0 and results["extra_data"]["judged"] is True, (path, ran.stdout[-2000:])
            check_scores(problem_tests(results, slug, several), verdict, points[slug], visibility)
        assert box.oom_kills() == 0, "the container's OOM killer fired"
        found = figures("gradescope", setup_s, times, peaks, box.limit)
        assert found["box_peak_mib"]["max"] < found["box_limit_mib"]

        slug = slugs[0]
        reference = find_problem(slug).reference.read_text()
        shutil.rmtree(root / "results")
        (root / "submission" / (f"{slug}.py" if several else "solution.py")).write_text(
            FORGER.replace(REFERENCE_SOURCE, reference))
        for other in (root / "submission").iterdir():
            if other.name != (f"{slug}.py" if several else "solution.py"):
                other.unlink()
        box.run(binds, "cd /autograder && ./run_autograder", platform_env())
        results = json.loads((root / "results" / "results.json").read_text())
        validator.validate(results)
        assert results["extra_data"]["judged"] is True and "forged" not in results["output"]
        check_scores(problem_tests(results, slug, several), "accepted", points[slug], visibility)

        (root / "submission" / (f"{slug}.py" if several else "solution.py")).write_text(
            reference + "\nimport time\n_real = Solution\nclass Solution(_real):\n    def __getattribute__(self, name):\n"
            "        if not name.startswith('_'):\n            time.sleep(0.4)\n        return object.__getattribute__(self, name)\n")
        left = kill_mid_run(box, binds, "cd /autograder && exec ./run_autograder", root / "results" / "results.json")
        validator.validate(left)
        assert left["extra_data"] == {"judged": False, "finished": False} and left["score"] == 0.0
    finally:
        box.close()


def test_prairielearn_grader_end_to_end(tmp_path, mount_points):
    slugs = problems()
    out = tmp_path / "pl"
    exported = run_judge(["export", "prairielearn", *slugs, "--out", str(out)])
    assert exported.returncode == 0, exported.stderr
    image, grade = tmp_path / "image", tmp_path / "grade"
    build_image_source(out / "grader", image)  # as the Dockerfile's COPY lines do
    box = Box("prairielearn", *BOXES["prairielearn"])
    binds = {"/opt/torch-judge": image, "/grade": grade}
    grade.mkdir()
    try:
        started = time.monotonic()
        # the Dockerfile binds the questions in for this one step (their tests/ folders hold the problems)
        setup = box.run(binds, f"bash /opt/torch-judge/source/setup.sh /opt/torch-judge {out / 'questions'}",
                        platform_env(), boxed=False)
        setup_s = time.monotonic() - started
        assert setup.returncode == 0, log(setup)
        validator = jsonschema.Draft7Validator(schema("prairielearn-results"))
        times, peaks = [], []
        for slug, path, verdict in declared(slugs):
            info = json.loads((out / "questions" / slug / "info.json").read_text())
            entrypoint = " ".join(info["externalGradingOptions"]["entrypoint"])
            for part in ("student", "results", "data", "tests"):
                shutil.rmtree(grade / part, ignore_errors=True)
            shutil.copytree(out / "questions" / slug / "tests", grade / "tests")  # the question's, while grading
            (grade / "student").mkdir()
            (grade / "data").mkdir()
            (grade / "data" / "data.json").write_text("{}")
            shutil.copy(path, grade / "student" / "solution.py")
            box.reset_peak()
            started = time.monotonic()
            ran = box.run(binds, entrypoint, platform_env())
            times.append(time.monotonic() - started)
            peaks.append(box.peak())
            results = json.loads((grade / "results" / "results.json").read_text())
            validator.validate(results)
            assert ran.returncode == 0, (path, ran.stdout[-2000:])
            hidden = [t for t in results["tests"] if t["max_points"] > 0]
            if verdict == "compile_error":
                assert results["gradable"] is False and results["format_errors"]
                continue
            assert results["gradable"] is True
            assert results["score"] == pytest.approx(  # rounded to 6 decimals, as PrairieLearn's results are
                sum(t["points"] for t in hidden) / sum(t["max_points"] for t in hidden), rel=0, abs=5e-7)
            verdicts = [t["message"].split()[0] for t in results["tests"] if not t["message"].startswith("not run")]
            assert next((v for v in verdicts if v != "accepted"), "accepted") == verdict, path
            for test in hidden:
                assert test["points"] == (test["max_points"] if test["message"] == "accepted" else 0.0)
        assert box.oom_kills() == 0
        found = figures("prairielearn", setup_s, times, peaks, box.limit)
        assert found["box_peak_mib"]["max"] < found["box_limit_mib"]

        slug = slugs[0]
        entrypoint = f"/opt/torch-judge/source/grade {slug}"
        shutil.rmtree(grade / "tests")
        shutil.copytree(out / "questions" / slug / "tests", grade / "tests")
        (grade / "student" / "solution.py").write_text(FORGER.replace(REFERENCE_SOURCE, find_problem(slug).reference.read_text()))
        shutil.rmtree(grade / "results")
        box.run(binds, entrypoint, platform_env())
        results = json.loads((grade / "results" / "results.json").read_text())
        validator.validate(results)
        assert results["score"] == 1.0 and results["gradable"] is True

        (grade / "student" / "solution.py").write_text(
            find_problem(slug).reference.read_text() + "\nimport time\n_real = Solution\nclass Solution(_real):\n"
            "    def __getattribute__(self, name):\n        if not name.startswith('_'):\n            time.sleep(0.4)\n"
            "        return object.__getattribute__(self, name)\n")
        left = kill_mid_run(box, binds, f"exec {entrypoint}", grade / "results" / "results.json")
        validator.validate(left)
        assert left["gradable"] is False and "did not finish" in left["message"]
    finally:
        box.close()
