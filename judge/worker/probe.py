"""What confinement this machine allows, found by trying it, and the layer-by-layer account ``judge doctor`` prints.

At the first use in a judge process, :func:`confinement` probes the layers strongest first, by starting a tiny
process exactly the way a worker would be started (same view, same limits, the filter installed and a fork
refused), and caches the strongest that works. ``JUDGE_MAX_LEVEL`` (``L0``, ``L1`` or ``L2``) caps it, for
testing the weaker layers on a machine that has the stronger ones. Workers are then started under what was
found (:mod:`judge.worker.launch`), never probed again.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

from judge import messages
from judge.settings import CGROUPS, IPC_NAMESPACES, MAX_LEVEL, PRIVATE_MOUNTS
from judge.worker import cgroup, ipc, landlock, mounts
from judge.worker.confinement import DISK_QUOTA, PROCESS_LIMIT, SANDBOX_UID, TMPFS_BYTES, Confinement
from judge.worker.launch import PYTHON_FLAGS, popen
from judge.worker.scratch import make_scratch

"""``off``: no private mounts below L2 even as root (to test what a judge that is not root gives)"""
PROBE_TIMEOUT_S = 60
PROBE = """
import importlib.util, os, sys, threading
for name in ("torch", "judge.worker.main"):
    if importlib.util.find_spec(name) is None:
        sys.exit(f"cannot find {name}")
from judge.worker.main import Lockdown, lock_down
if "--find-ipc" in sys.argv:  # how a zygote's child, forked in this view, gets an IPC namespace of its own
    from judge.worker import ipc
    print("ipc=" + "|".join(ipc.working_mode()))
if "--find-view" in sys.argv:  # whether a zygote's child, forked in this view, gets mounts of its own
    from judge.worker import mounts
    print("view=" + (mounts.works_in_child(os.path.join(os.getcwd(), "view")) or "ok"))
lockdown = Lockdown.from_argv(sys.argv[1:])
lock_down(lockdown, os.getcwd())
if lockdown.secrets is not None:
    for secret in lockdown.secrets.kept:
        try:
            os.listdir(secret)
            sys.exit(f"Landlock let {secret} be read")
        except (PermissionError, FileNotFoundError, NotADirectoryError):
            pass
if lockdown.seccomp:
    try:
        if os.fork() == 0:
            os._exit(0)
        sys.exit("the filter let a fork through")
    except PermissionError:
        pass
    thread = threading.Thread(target=lambda: None)
    thread.start()
    thread.join()
print("ok")
"""


def confinement(device: str = "cpu") -> Confinement:
    """The strongest layers that work here, probed once per process.

    A GPU worker stops at L1: bubblewrap's minimal view has no GPU device nodes or driver files in it.
    """
    cap = MAX_LEVEL.choice()
    if device == "cuda" and cap == "L2":
        return _probe("L1", messages.SaidText("no_gpu_in_bwrap"))
    return _probe(cap, messages.SaidText("level_capped", cap=cap))


def level(device: str = "cpu", lang: str = "en") -> str:
    """The confinement in force, as every report prints it (in ``lang``)."""
    return confinement(device).describe(lang)


def _try(candidate: Confinement) -> str | None:
    """Start a probe exactly as a worker would be started; None when it works, else why it does not. Under
    bubblewrap it also finds how a child forked in the view gets an IPC namespace (:data:`_FORKED_IPC`) and
    whether it can make mounts of its own (:data:`_FORKED_VIEW`)."""
    scratch = make_scratch(b"", candidate)
    find = [*(["--find-ipc"] if candidate.bwrap and not IPC_NAMESPACES.off() else []),
            *(["--find-view"] if candidate.bwrap and not PRIVATE_MOUNTS.off() else [])]
    argv = [sys.executable, *PYTHON_FLAGS, "-c", PROBE, *candidate.lockdown.argv(), *find]
    try:
        probe = popen(candidate, scratch, argv, 1 << 30, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                      stderr=subprocess.STDOUT)
        out, _ = probe.communicate(timeout=PROBE_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{type(exc).__name__}: {exc}"
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    text = out.decode("utf-8", "replace").strip()
    if probe.returncode == 0 and text.endswith("ok"):
        found = [line[4:].split("|", 1) for line in text.splitlines() if line.startswith("ipc=")]
        _FORKED_IPC[candidate] = (found[-1][0], found[-1][1]) if found else ("", "")
        views = [line[5:] for line in text.splitlines() if line.startswith("view=")]
        _FORKED_VIEW[candidate] = views[-1] if views else messages.SaidText("layer_env_off", env=PRIVATE_MOUNTS.name)
        return None
    return text.splitlines()[-1][:200] if text else f"exit status {probe.returncode}"


_FORKED_IPC: dict[Confinement, tuple[str, str]] = {}
"""for each bubblewrap candidate that worked: the IPC mode a child forked in its view can use, and why none"""
_FORKED_VIEW: dict[Confinement, str] = {}
"""for each bubblewrap candidate that worked: ``ok`` where a child forked in its view can make its own mounts
(:func:`judge.worker.mounts.private_scratch`), else why not"""


def _first_working(candidates: list[Confinement], missing: list[str]) -> Confinement | None:
    """The first candidate whose probe works; the reasons the others failed are added to ``missing``."""
    for candidate in candidates:
        failure = _try(candidate)
        if failure is None:
            return candidate
        missing.append(_off(_layer_name(candidate), failure))
    return None


_PRIVATE_MOUNTS = messages.SaidText("layer_name_private_mounts")


def _off(layer: str, reason: str) -> messages.SaidText:
    """Why ``layer`` is off, said in each report's language (``judge run --verbose``); a probe's own failure text,
    another program's, as it is."""
    return messages.SaidText("layer_off", layer=layer, reason=reason)


def _layer_name(candidate: Confinement) -> str:
    if candidate.bwrap:
        return "bubblewrap"
    if candidate.uid is not None:
        return f"uid {candidate.uid}"
    return "Landlock" if candidate.landlock else "seccomp"


@functools.cache
def _probe(cap: str, capped_because: str) -> Confinement:
    """The strongest confinement up to ``cap`` that starts here; ``capped_because`` says why the cap, if any."""
    missing: list[str] = []
    uids = [SANDBOX_UID, None] if os.geteuid() == 0 else [None]
    bwrap, abi = shutil.which("bwrap"), landlock.abi()
    if cap != "L2":
        missing.append(_off("bubblewrap", capped_because))
    elif bwrap is None:
        missing.append(_off("bubblewrap", messages.SaidText("no_bwrap")))
    else:
        found = _first_working([Confinement("L2", SANDBOX_UID, bwrap, seccomp=True, landlock=abi)], missing)
        if found:
            version = _cgroup_version(missing)  # before the reasons are frozen: it adds why there is none
            mode = _ipc_mode(_FORKED_IPC.get(found, ("", "")), missing)
            view = _FORKED_VIEW.get(found, "")
            if view != "ok":
                missing.append(_off(_PRIVATE_MOUNTS, view))
            return Confinement(found.level, found.uid, found.bwrap, tuple(missing), found.seccomp, found.landlock,
                               version, view == "ok", mode)
    if cap == "L0":
        missing += [_off(layer, capped_because) for layer in ("seccomp", "Landlock")]
    elif not abi:
        missing.append(_off("Landlock", messages.SaidText("no_landlock")))
    mode = _ipc_mode(("", "") if IPC_NAMESPACES.off() else ipc.working_mode(), missing)
    candidates = ([Confinement("L1", uid, seccomp=True, landlock=abi, ipc=mode) for uid in uids]
                  if abi and cap != "L0" else [])
    candidates += [Confinement("L0", uid, seccomp=True, ipc=mode) for uid in uids] if cap != "L0" else []
    found = _first_working(candidates + [Confinement("L0", uid, ipc=mode) for uid in uids], missing)
    base = found or Confinement("L0", None, ipc=mode)
    private, version = _private_mounts_work(base, missing), _cgroup_version(missing)
    return Confinement(base.level, base.uid, None, tuple(missing), base.seccomp, base.landlock, version, private, mode)


def _ipc_mode(found: tuple[str, str], missing: list[str]) -> str:
    """The IPC mode (:func:`judge.worker.ipc.working_mode`'s answer, ``found``); why none, added to ``missing``."""
    mode, why = found
    if not mode:
        reason = messages.SaidText("layer_env_off", env=IPC_NAMESPACES.name) if IPC_NAMESPACES.off() else why
        missing.append(_off(messages.SaidText("layer_name_ipc_namespace"), reason))
    return mode


def _cgroup_version(missing: list[str]) -> int:
    """The cgroup version workers get; why none, added to ``missing``."""
    if CGROUPS.off():
        missing.append(_off("cgroup", messages.SaidText("layer_env_off", env=CGROUPS.name)))
        return 0
    found = cgroup.available()
    if isinstance(found, str):
        missing.append(_off("cgroup", found))
        return 0
    return found


def _private_mounts_work(base: Confinement, missing: list[str]) -> bool:
    """Below L2: whether a probe in a mount namespace of its own, with a sized scratch tmpfs, starts here."""
    if os.geteuid() != 0 or PRIVATE_MOUNTS.off():
        reason = messages.SaidText("layer_env_off", env=PRIVATE_MOUNTS.name) if os.geteuid() == 0 else \
            messages.SaidText("layer_uid_not_root")
        missing.append(_off(_PRIVATE_MOUNTS, reason))
        return False
    failure = _try_private_mounts(base)
    if failure is not None:
        missing.append(_off(_PRIVATE_MOUNTS, failure))
    return failure is None


def _try_private_mounts(base: Confinement) -> str | None:
    """Make a worker's private mounts in a forked child; None when that works, else why not. A fork, not a probe
    interpreter: the interpreter and the other layers were probed already, and this costs milliseconds."""
    scratch = make_scratch(b"", base)
    try:
        return mounts.works_in_child(str(scratch / "view"), base.uid)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# -- judge doctor ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Layer:
    """One layer of confinement, for ``judge doctor``."""

    name: str
    active: bool
    detail: str
    """what it does when active, else why it is off"""


def limits_summary(found: Confinement, memory_bytes: int | None = None) -> str:
    """How this confinement bounds memory, threads and disk (in ``judge doctor`` and every report)."""
    memory = f"{memory_bytes >> 20} MiB" if memory_bytes else "capped"
    memory_how = (messages.say("limits_memory_cgroup", version=found.cgroup) if found.cgroup
                  else messages.say("limits_memory_rss"))
    tasks_how = messages.say("limits_tasks_cgroup" if found.cgroup else "limits_tasks_poll")
    disk_how = ("limits_disk_tmpfs" if found.bwrap or found.private_mounts
                else "limits_disk_landlock" if found.landlock else "limits_disk_walk")
    return messages.say("limits_summary", memory=memory, memory_how=memory_how, tasks=PROCESS_LIMIT,
                        tasks_how=tasks_how, disk=DISK_QUOTA >> 20, disk_how=messages.say(disk_how))


def _why_off(found: Confinement, layer: str) -> str:
    prefix = messages.say("layer_off", layer=layer, reason="")
    return next((m.removeprefix(prefix) for m in found.missing if m.startswith(prefix)), messages.say("layer_weaker"))


def explain(device: str = "cpu") -> list[Layer]:
    """Each layer a worker started here gets, on or off, with what it does or why it is off; the last entry is
    the level, with what it guarantees (the same for ``judge run``/``submit`` and ``judge grade``, whose warm
    workers are forked inside the same confinement)."""
    found = confinement(device)
    scope = messages.say("layer_landlock_scope") if found.landlock >= 6 else messages.say("layer_landlock_noscope")
    uid_off = _why_off(found, f"uid {SANDBOX_UID}") if os.geteuid() == 0 else messages.say("layer_uid_not_root")
    return [
        Layer("limits", True, messages.say("layer_limits", limits=limits_summary(found))),
        Layer("cgroup", bool(found.cgroup), messages.say("layer_cgroup", version=found.cgroup) if found.cgroup
              else _why_off(found, "cgroup")),
        Layer("private mounts", found.private_mounts,
              messages.say("layer_private_mounts", size=TMPFS_BYTES >> 20) if found.private_mounts
              else messages.say("layer_bwrap_has_it") if found.bwrap else _why_off(found, "private mounts")),
        Layer("uid", found.uid is not None,
              messages.say("layer_uid", uid=found.uid) if found.uid is not None else
              messages.say("layer_uid_kept", uid=os.geteuid(), reason=uid_off)),
        Layer("capabilities", True, messages.say("layer_capabilities")),
        Layer("seccomp", found.seccomp, messages.say("layer_seccomp") if found.seccomp else _why_off(found, "seccomp")),
        Layer("Landlock", bool(found.landlock),
              messages.say("layer_landlock", abi=found.landlock, scope=scope) if found.landlock
              else _why_off(found, "Landlock")),
        Layer("bubblewrap", bool(found.bwrap), messages.say("layer_bwrap") if found.bwrap
              else _why_off(found, "bubblewrap")),
        Layer("level", found.keeps_secrets, messages.say(f"guarantee_{found.level}")),
    ]


def channels(device: str = "cpu") -> list[Layer]:
    """Each kernel-wide place a worker could leave something in for a later worker: closed or not, and how. The
    IPC line probes again (a namespace made and the filter's refusal, each in a forked child); the others follow
    from the layers found in force."""
    found = confinement(device)
    ipc_how = [messages.say("channel_ipc_bwrap")] if found.bwrap else []
    if found.ipc and (found.bwrap or ipc._in_child(found.ipc) == 0):
        ipc_how.insert(0, messages.say("channel_ipc_namespace", how=f"unshare, {found.ipc} mode"))
    if found.seccomp and ipc.filter_refuses():
        ipc_how.append(messages.say("channel_ipc_filter"))
    sockets = ([messages.say("channel_sockets_filter")] if found.seccomp else []) + (
        [messages.say("channel_sockets_landlock")] if found.landlock >= 6 else [])
    folders = ([messages.say("channel_folders_landlock")] if found.landlock else []) + (
        [messages.say("channel_folders_mounts")] if found.private_mounts else []) + (
        [messages.say("channel_folders_bwrap")] if found.bwrap and not (found.landlock or found.private_mounts)
        else [])
    pids = ([messages.say("channel_process_ids_namespace")] if found.private_mounts else [
        messages.say("channel_process_ids_open")]) + (
        [messages.say("channel_process_ids_bwrap")] if found.bwrap else [messages.say("channel_process_ids_fresh")])
    inodes = ([messages.say("channel_inodes_filter")] if found.seccomp else []) + (
        [messages.say("channel_inodes_proc")] if found.private_mounts else []) + (
        [] if found.private_mounts and found.bwrap else [messages.say("channel_inodes_proc_open")])
    closed = {"channel_ipc": len(ipc_how) > bool(found.bwrap), "channel_folders": bool(found.landlock or
                                                                                   found.private_mounts),
              "channel_page_cache": False,  # a timing channel: open (docs/security.md)
              "channel_process_ids": bool(found.private_mounts and found.bwrap),
              "channel_inodes": bool(found.seccomp and found.private_mounts and found.bwrap)}
    shown = [("channel_ipc", ipc_how), ("channel_sockets", sockets),
             ("channel_keyrings", [messages.say("channel_keyrings_filter")] if found.seccomp else []),
             ("channel_folders", folders), ("channel_scratch", [messages.say("channel_scratch_fresh")]),
             ("channel_descriptors", [messages.say("channel_descriptors_closed")]),
             ("channel_locks", [messages.say("channel_locks_filter")] if found.seccomp else []),
             ("channel_inodes", inodes),
             ("channel_mount_ids", [messages.say("channel_mount_ids_filter")] if found.seccomp else []),
             ("channel_page_cache", [*([messages.say("channel_page_cache_filter")] if found.seccomp else []),
                                     messages.say("channel_page_cache_open")]),
             ("channel_process_ids", pids)]
    return [Layer(messages.say(name), closed.get(name, bool(how)), "; ".join(how) or messages.say("channel_open"))
            for name, how in shown]
