"""The adversarial suite's machinery: the hostile files of ``tests/adversarial/`` and their headers, the toy
problem they are judged on, and the checks every judgement of one must pass (the verdict, no survivors, no file
changed outside the scratch directory, nothing hidden in the report). The tests are in tests/test_adversarial.py
and tests/test_adversarial_bundled.py; the fixtures ``adversarial_root`` and ``arena`` in tests/conftest.py."""

from __future__ import annotations

import hashlib
import shutil
import uuid
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from judge.worker import cgroup, probe
from judge.worker.confinement import LEVELS, Confinement
from tests.support.cli import REFERENCE_SOURCE, REPO, SLUG, judge_env
from tests.support.ipc import ipc_objects
from tests.support.toy import build_toy, mlp_case

SUITE = REPO / "tests" / "adversarial"
VERDICTS = ("accepted", "wrong_answer", "time_limit_exceeded", "memory_limit_exceeded", "runtime_error",
            "compile_error", "output_format_error")
HEADER_KEYS = ("verdict", "attack", "stopped by", "needs", "levels", "base", "outputs", "problem")
CANARY = "adv-canary"
"""attacks that write outside their scratch directory put this in the names they write"""
MACHINE_WIDE = frozenset({"test_adversarial", "test_adversarial_bundled", "test_containers", "test_hostile_outputs",
                          "test_ipc", "test_limits"})
"""modules whose checks read the whole machine (canaries in /tmp and /dev/shm, System V objects, leftover
processes and cgroups) before and after judging: under pytest-xdist they share one worker, one test at a time, so
one attack's traces are never blamed on another running beside it"""
SHARED_DIRS = ("/tmp", "/var/tmp", "/dev/shm")
OTHER_STUDENT = "OTHER-STUDENT-SECRET"
LEAK = "LEAKED-"
"""attacks that try to smuggle hidden inputs into the report prefix them with this"""
JUDGE_TIMEOUT_S = 180
TOY_CPU_FLOOR_S = 1.0
"""the toy's CPU limit: memory bombs must reach its 450 MB well within it on a loaded 2-core machine (at 0.5 s,
32-infinite-recursion, whose frames grow the heap about 400 MB a CPU-second, ended on the CPU limit in 2 of 3
default runs there)"""


def xdist_group(module: str) -> str:
    """The pytest-xdist group of a test module (its name without the package): ``machine-wide`` for those of
    :data:`MACHINE_WIDE`, the module's own name for every other, so one worker runs a module's tests in its order."""
    return "machine-wide" if module in MACHINE_WIDE else module


def _hidden_case() -> dict:
    case = mlp_case("batch of six", 20, 6)
    case["calls"].append({"method": "diagnose", "args": [
        [{"mean": 0.1, "std": 0.05, "dead_fraction": 0.2}], [{"mean": 0.0, "std": 0.1, "norm": 2.0}]]})
    return case


ADVERSARIAL_CASES = {"sample/01-small": mlp_case("a small ReLU MLP", 10, 8), "hidden/01-six": _hidden_case()}


@dataclass(frozen=True)
class Attack:
    path: Path
    header: dict[str, str]

    @property
    def verdict(self) -> str:
        return self.header["verdict"]

    @property
    def problem(self) -> str | None:
        return self.header.get("problem")

    def source(self) -> str:
        text = self.path.read_text()
        if self.header.get("base") != "reference":
            return text
        reference = (REPO / "solutions" / f"{self.problem}.py").read_text() if self.problem else REFERENCE_SOURCE
        return reference + "\n\n" + text


def _header(path: Path) -> dict[str, str]:
    header = {}
    for line in path.read_text().splitlines():
        if not line.startswith("# "):
            break
        key, _, value = line[2:].partition(":")
        if key in HEADER_KEYS:
            header[key] = value.strip()
    return header


EVERY_ATTACK = [Attack(p, _header(p)) for p in sorted(SUITE.glob("*.py"))]
ATTACKS = [a for a in EVERY_ATTACK if a.problem is None]
"""the attacks judged on the toy problem here"""


def calibrated_root(folder: Path) -> Path:
    """The small problem in ``folder``, calibrated once, with the judge's bytecode compiled so judging writes none
    of it."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "judge")], check=True)
    root = build_toy(folder, ADVERSARIAL_CASES, memory_mb=450, time_floor_s=TOY_CPU_FLOOR_S)
    reference = root / "solutions" / f"{SLUG}.py"
    calibrate = subprocess.run([sys.executable, "-m", "judge", "submit", SLUG, str(reference), "--format", "json"],
                               capture_output=True, text=True, env=judge_env(root), timeout=JUDGE_TIMEOUT_S)
    assert json.loads(calibrate.stdout)["verdict"] == "accepted", calibrate.stderr
    return root


def new_arena() -> Path:
    """A world-readable folder for one judgement: the submission, another student's, and the judge's TMPDIR."""
    base = Path("/tmp") / f"adv-{uuid.uuid4().hex[:12]}"
    (base / "submissions").mkdir(parents=True)
    (base / "tmp").mkdir()
    base.chmod(0o755)
    (base / "submissions").chmod(0o755)
    other = base / "submissions" / "other-student.py"
    other.write_text(f"# {OTHER_STUDENT}\n" + REFERENCE_SOURCE)
    other.chmod(0o644)
    return base


def remove_arena(base: Path) -> None:
    """Remove the arena and every canary an attack left in the shared folders."""
    shutil.rmtree(base, ignore_errors=True)
    for path in _canaries():
        shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else os.unlink(path)


def _unmet(needs: str | None, found: Confinement) -> bool:
    return (needs == "L2" and found.bwrap is None or needs == "L1" and not found.keeps_secrets
            or needs == "uid" and found.uid is None or needs == "cgroup" and not found.cgroup
            or needs == "disk" and not found.disk_bounded)


def _at(cap: str | None) -> Confinement:
    """The confinement judges get with ``JUDGE_MAX_LEVEL=cap`` (None: as this environment says); a test run with
    a lower ``JUDGE_MAX_LEVEL`` skips the levels above it."""
    outer = os.environ.get("JUDGE_MAX_LEVEL", "L2")
    if cap and LEVELS.index(cap) > LEVELS.index(outer):
        pytest.skip(f"JUDGE_MAX_LEVEL is {outer}")
    with pytest.MonkeyPatch.context() as patch:
        if cap:
            patch.setenv("JUDGE_MAX_LEVEL", cap)
        return probe.confinement()


def _snapshot(roots: list[Path]) -> dict[str, tuple[int, int, int]]:
    """Every file under ``roots`` with its inode, size and modification time."""
    seen = {}
    for root in roots:
        for dirpath, _, files in os.walk(root):
            for name in files:
                path = os.path.join(dirpath, name)
                try:
                    st = os.lstat(path)
                except OSError:
                    continue
                seen[path] = (st.st_ino, st.st_size, st.st_mtime_ns)
    return seen


def _canaries() -> list[str]:
    return [f"{d}/{name}" for d in SHARED_DIRS if os.path.isdir(d) for name in os.listdir(d) if CANARY in name]


def survivors(marker: str) -> list[str]:
    """Live processes whose environment or working directory carries ``marker``."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            environ = (proc / "environ").read_bytes()
            cwd = os.readlink(proc / "cwd")
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker.encode() in environ or marker in cwd:
            found.append(f"{proc.name}: {cmdline[:120]}")
    return found


def start_judge(root: Path, submission: Path, arena: Path, cap: str | None = None,
                slug: str = SLUG) -> subprocess.Popen:
    env = judge_env(root)
    env["TMPDIR"] = str(arena / "tmp")
    if cap:
        env["JUDGE_MAX_LEVEL"] = cap
    return subprocess.Popen([sys.executable, "-m", "judge", "submit", slug, str(submission), "--format", "json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


RUNS = [(a, None) for a in ATTACKS] + [(a, "L1") for a in ATTACKS if a.header.get("needs") == "L1"
                                        or a.header.get("levels") == "every"]
RUNS += [(a, "L0") for a in ATTACKS if a.header.get("levels") == "every"]


def _watched(root: Path, arena: Path) -> list[Path]:
    return [REPO / "judge", REPO / "problems", REPO / "solutions", SUITE, root, arena / "submissions"]


def _changed(before: dict, after: dict) -> list[str]:
    return sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))


def judge_attack(attack: Attack, cap: str | None, root: Path, arena: Path, slug: str = SLUG) -> None:
    """Judge one attack through ``judge submit`` and check all tests/test_adversarial.py's docstring says."""
    confinement = _at(cap)
    if cap and confinement.level == _at(None).level:
        pytest.skip(f"this machine gives {cap} anyway: the uncapped run covers it")
    needs = attack.header.get("needs")
    if _unmet(needs, confinement):
        pytest.skip(f"needs {needs}; this machine gives {confinement.describe()}")
    submission = arena / "submissions" / attack.path.name
    submission.write_text(attack.source())
    submission.chmod(0o644)
    watched = _watched(root, arena)  # not the history: judge submit records the attempt there
    before, objects = _snapshot(watched), ipc_objects()
    assert not _canaries(), "a canary from an earlier run is still there"

    judge = start_judge(root, submission, arena, cap, slug)
    out, err = judge.communicate(timeout=JUDGE_TIMEOUT_S)
    assert judge.returncode in (0, 1), f"judge exit status {judge.returncode}\n{err[-3000:]}"
    report = json.loads(out)
    json.dumps(report, ensure_ascii=False).encode("utf-8")  # strict JSON readers refuse even escaped lone surrogates
    assert report["judge"]["security_level"].startswith(confinement.level)

    seen = [t["extra_data"]["verdict"] for t in report["tests"]]
    assert report["verdict"] == attack.verdict, f"per case: {seen}; error: {report['judge'].get('startup_error')}"
    assert not survivors(arena.name), "processes of the submission survived the judge"
    changed = _changed(before, _snapshot(watched))
    assert not changed, f"files outside the scratch directory changed: {changed[:5]}"
    assert not _canaries(), "the submission wrote outside its scratch directory"
    assert not list((arena / "tmp").iterdir()), "the scratch directory was not removed"
    assert not _cgroups_of(judge.pid), "the workers' cgroups were not removed"
    assert ipc_objects() <= objects, "the submission left System V objects or message queues on the machine"
    _check_hidden(report)


def _cgroups_of(judge_pid: int) -> list[str]:
    """The cgroups a judge with this pid made for its workers and left behind."""
    return [str(p) for base in set(cgroup._mounts().values()) for p in base.glob(f"judge-{judge_pid}-*")]


def _check_hidden(report: dict) -> None:
    hidden = json.dumps([t for t in report["tests"] if t["extra_data"]["hidden"]])
    assert LEAK not in hidden and OTHER_STUDENT not in hidden
    for test in report["tests"]:
        if test["extra_data"]["hidden"]:
            assert "inputs" not in test["extra_data"]
            assert all(set(c) <= {"method", "verdict", "limit"}  # no field, no time of its own
                       for c in test["extra_data"]["calls"])


NOTE_COPIES = 4
"""copies of the note-leaving case in the graded class: with two job slots, two of them share a warm worker"""
NOTE_CASE = "90-leaves-a-note-for-the-next"


def _git_state() -> tuple[str, dict[str, str]]:
    """The checkout's ``git status`` and the hash of every file of the problems and solutions."""
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=REPO, capture_output=True,
                            text=True, check=True).stdout
    hashes = {str(p): hashlib.sha256(p.read_bytes()).hexdigest()
              for folder in ("problems", "solutions") for p in sorted((REPO / folder).rglob("*")) if p.is_file()}
    return status, hashes


def grade_class(cap: str, root: Path, arena: Path, judge_home: Path, attacks: list[Attack], slug: str = SLUG) -> None:
    """Grade ``attacks`` and the reference (as another student) as one class and check what
    tests/test_adversarial.py's docstring says."""
    confinement = _at(cap)
    if confinement.level != cap:
        pytest.skip(f"this machine gives {confinement.describe()}")
    folder = arena / "submissions"
    if slug != SLUG:
        (folder / "other-student.py").write_text(f"# {OTHER_STUDENT}\n" + (REPO / "solutions" / f"{slug}.py").read_text())
    expected = {"other-student": "accepted"}
    for attack in attacks:
        if _unmet(attack.header.get("needs"), confinement):
            continue
        for copy in range(NOTE_COPIES if attack.path.stem == NOTE_CASE else 1):
            student = attack.path.stem + (f"-{copy}" if copy else "")
            (folder / f"{student}.py").write_text(attack.source())
            expected[student] = attack.verdict
    for path in folder.iterdir():
        path.chmod(0o644)
    out = arena / "graded"
    watched = [*_watched(root, arena), judge_home]
    before, git_before, objects = _snapshot(watched), _git_state(), ipc_objects()
    env = {**judge_env(root), "TMPDIR": str(arena / "tmp"), "JUDGE_MAX_LEVEL": cap}
    graded = subprocess.run([sys.executable, "-m", "judge", "grade", slug, str(folder), "--out", str(out),
                             "--jobs", "2"], capture_output=True, text=True, env=env, timeout=20 * JUDGE_TIMEOUT_S)
    assert graded.returncode == 0, graded.stdout[-2000:] + graded.stderr[-3000:]

    reports = {p.parent.name: json.loads(p.read_text()) for p in (out / "students").glob("*/results.json")}
    verdicts = {student: report["verdict"] for student, report in reports.items()}
    assert verdicts == expected
    assert not survivors(arena.name), "processes of a submission survived the judge"
    changed = _changed(before, _snapshot(watched))
    assert not changed, f"files outside the scratch directories changed: {changed[:5]}"
    assert _git_state() == git_before, "the graded class changed the checkout"
    assert not _canaries(), "a submission wrote outside its scratch directory"
    assert not list((arena / "tmp").iterdir()), "a scratch directory was not removed"
    assert ipc_objects() <= objects, "a submission left System V objects or message queues on the machine"
    for report in reports.values():
        assert report["judge"]["security_level"].startswith(cap)
        _check_hidden(report)
