"""``judge doctor``: what this installation uses and how tightly it confines submissions, one section a function.

Every section returns its lines; :func:`report` joins them. Nothing here changes state: the history and the cache
are named, not created.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
from pathlib import Path
from typing import Any, Callable

from judge import messages
from judge.command import add_command
from judge.errors import EXIT_OK
from judge.machine import cpu_model, gpus, judge_version, torch_version
from judge.report.escape import inline
from judge.settings import CACHE, HOME, PROBLEMS, SETTINGS, SOLUTIONS, Setting

Section = Callable[[], list[str]]


def version_line() -> str:
    """What ``judge --version`` prints."""
    return messages.say("version", version=judge_version(), torch=torch_version())


def version() -> list[str]:
    return [f"{version_line()} · Python {platform.python_version()} · {sys.executable}"]


def devices() -> list[str]:
    found = [messages.say("doctor_cpu", model=cpu_model() or platform.machine(), cores=os.cpu_count())]
    found += list(gpus()) or [messages.say("doctor_no_gpu")]
    return [messages.say("doctor_devices")] + [f"  {d}" for d in found]


def _origin(setting: Setting, path: Path, otherwise: str) -> str:
    return setting.name if path in setting.folders() else otherwise


def problems() -> list[str]:
    from judge.package.problem import problems_roots

    lines, seen = [messages.say("doctor_problems")], set()
    for root in problems_roots():
        slugs = {p.parent.name for p in root.glob("*/problem.toml")}
        state = (messages.say("doctor_problem_count", count=len(slugs), shadowed=len(slugs & seen))
                 if root.is_dir() else messages.say("doctor_missing"))
        lines.append(f"  {root}  ({_origin(PROBLEMS, root, 'bundled')}: {state})")
        seen |= slugs
    return lines


def solutions() -> list[str]:
    from judge.package.problem import solutions_roots

    lines = [messages.say("doctor_solutions")]
    for root in solutions_roots():
        state = "" if root.is_dir() else f": {messages.say('doctor_missing')}"
        lines.append(f"  {root}  ({_origin(SOLUTIONS, root, messages.say('doctor_beside'))}{state})")
    return lines


def data() -> list[str]:
    from judge.places import cache_dir
    from judge.practice.history import db_path

    return [messages.say("doctor_history", path=db_path(), how=HOME.name if HOME.is_set() else "default"),
            messages.say("doctor_cache", path=cache_dir(), how=CACHE.name if CACHE.is_set() else "default")]


def settings() -> list[str]:
    """Every ``JUDGE_*`` variable, with its value where it is set and its default where not."""
    return [messages.say("doctor_settings")] + [
        messages.say("doctor_setting_set", name=s.name, value=s.raw()) if s.is_set()
        else messages.say("doctor_setting_unset", name=s.name, default=s.default) for s in SETTINGS]


def security() -> list[str]:
    from judge.worker import probe

    # judge grade's warm workers are forked inside the confinement a fresh worker gets: the same level
    lines = [messages.say("doctor_security", what=what, level=probe.level("cpu"))
             for what in ("judge run / submit", "judge grade")]
    if gpus():
        lines.append(messages.say("doctor_security", what="--device cuda", level=probe.level("cuda")))
    lines.append(messages.say("doctor_layers"))
    lines += [messages.say("doctor_layer", mark="x" if layer.active else " ", name=layer.name,
                           detail=_with_blocker(layer)) for layer in probe.explain("cpu")]
    lines.append(messages.say("doctor_channels"))
    lines += [messages.say("doctor_layer", mark="x" if channel.active else " ", name=channel.name,
                           detail=channel.detail) for channel in probe.channels("cpu")]
    return lines


def _with_blocker(layer: Any) -> str:
    """A layer's detail, and for one that is off on this machine (not by a variable), what blocks it."""
    from judge.worker import blockers
    from judge.worker.confinement import SANDBOX_UID

    if layer.active or "JUDGE_" in layer.detail or layer.detail == messages.say("layer_bwrap_has_it"):
        return layer.detail
    found = {
        "bubblewrap": lambda: blockers.user_namespaces() if shutil.which("bwrap") else None,
        "private mounts": blockers.mount_namespaces,
        "Landlock": blockers.landlock,
        "cgroup": lambda: blockers.cgroups(layer.detail),
        "uid": lambda: blockers.interpreter_path(SANDBOX_UID, sys.executable) if os.geteuid() == 0 else None,
    }.get(layer.name, lambda: None)()
    return messages.say("blocked_by", detail=layer.detail, blocker=found) if found else layer.detail


def box() -> list[str]:
    """The container's limits, and what they leave a worker (:mod:`judge.judging.limits`)."""
    from judge.judging.limits import fit_memory, wall_scale
    from judge.worker import cgroup

    found = cgroup.box()
    if found.memory_bytes is None and found.cpus is None:
        return [messages.say("doctor_no_box")]
    return [messages.say("doctor_box", source=found.source,
                         memory=f"{found.memory_bytes >> 20} MiB" if found.memory_bytes else "no limit",
                         cpus=f"{found.cpus:g}" if found.cpus else "no quota",
                         worker=fit_memory(1 << 50, found) >> 20, scale=wall_scale(found))]


SECTIONS: tuple[Section, ...] = (version, devices, problems, solutions, data, settings, box, security)


def report() -> str:
    """Every section's lines, each kept on its line (a path or a variable's value is data: a newline or an escape
    in one is shown, never acted on)."""
    return "".join(inline(line) + "\n" for section in SECTIONS for line in section())


def cmd_doctor(args: argparse.Namespace) -> int:
    sys.stdout.write(report())
    return EXIT_OK


def add_commands(sub: Any, lang: str = "en") -> None:
    """Add ``doctor`` to ``judge``'s subcommands (``sub``, from ``add_subparsers``)."""
    add_command(sub, "doctor", cmd_doctor,
                "show the version, devices, problem folders, data folders, settings and security level in use")
