"""What blocks a layer of confinement that is off here, named for ``judge doctor``, with what would lift it.

The probes of :mod:`judge.worker.sandbox` say that a layer failed and with which error; inside a container that
error is often misleading (bubblewrap blames the kernel's user-namespace setting when a seccomp profile refused the
call). Each function here asks one question of the kernel, in a forked child where it changes anything, and
returns a sentence, or None when it finds nothing to name:

* user namespaces (bubblewrap): refused by a seccomp filter (the default profiles of Docker and containerd
  refuse them to a container without ``CAP_SYS_ADMIN``), by ``user.max_user_namespaces`` = 0, by
  ``kernel.unprivileged_userns_clone`` = 0 or AppArmor's ``apparmor_restrict_unprivileged_userns`` (for a judge
  that is not root); or allowed, but ``/proc`` has paths masked by a container runtime, so that no new ``/proc``
  may be mounted;
* mount namespaces (private mounts, as root): a seccomp filter, or no ``CAP_SYS_ADMIN``;
* Landlock: a seccomp filter that refuses its calls, or a kernel without it;
* the cgroup file system mounted read-only (a container that is not privileged);
* the worker's uid: a folder on the interpreter's path that the uid may not enter (``/root`` for pyenv).
"""

from __future__ import annotations

import ctypes
import errno
import os
from pathlib import Path

from judge import messages
from judge.worker import libc

CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
CAP_SYS_ADMIN = 21


def _status(key: str) -> str:
    try:
        lines = Path("/proc/self/status").read_text().splitlines()
    except OSError:
        return ""
    return next((line.split(":", 1)[1].strip() for line in lines if line.startswith(key + ":")), "")


def _sysctl(name: str) -> str:
    try:
        return Path("/proc/sys", *name.split(".")).read_text().strip()
    except OSError:
        return ""


def filtered() -> bool:
    """Whether a seccomp filter is installed on this process (``Seccomp: 2``), as a container runtime installs."""
    return _status("Seccomp") == "2"


def _unshare_errno(flags: int) -> int:
    """The errno of ``unshare(flags)`` in a forked child (0: it worked); the judge itself is left as it was."""
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            if libc.load().unshare(flags) != 0:
                code = ctypes.get_errno() or 255
        except BaseException:  # noqa: BLE001 -- the child must never return into the judge's code
            code = 255
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _masked_proc() -> list[str]:
    """Mounts over paths inside ``/proc`` (``/proc/kcore``, ``/proc/sys``...): a runtime's masks."""
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return []
    return [line.split()[4] for line in lines if line.split()[4].startswith("/proc/")]


def user_namespaces() -> str | None:
    code = _unshare_errno(CLONE_NEWUSER)
    if code == 0:
        masked = _masked_proc()
        return messages.say("blocked_proc_masked", paths=", ".join(masked[:3])) if masked else None
    if code == errno.ENOSPC or _sysctl("user.max_user_namespaces") == "0":
        return messages.say("blocked_max_userns")
    if code == errno.EPERM and filtered():
        return messages.say("blocked_seccomp", what="new user namespaces")
    if os.geteuid() != 0 and _sysctl("kernel.unprivileged_userns_clone") == "0":
        return messages.say("blocked_userns_clone")
    if os.geteuid() != 0 and _sysctl("kernel.apparmor_restrict_unprivileged_userns") == "1":
        return messages.say("blocked_apparmor_userns")
    return messages.say("blocked_errno", what="unshare(CLONE_NEWUSER)", reason=os.strerror(code))


def mount_namespaces() -> str | None:
    if os.geteuid() != 0:
        return None
    code = _unshare_errno(CLONE_NEWNS)
    if code == 0:
        return None
    if code == errno.EPERM and not int(_status("CapEff") or "0", 16) >> CAP_SYS_ADMIN & 1:
        return messages.say("blocked_no_sys_admin")
    if code == errno.EPERM and filtered():
        return messages.say("blocked_seccomp", what="new mount namespaces")
    return messages.say("blocked_errno", what="unshare(CLONE_NEWNS)", reason=os.strerror(code))


def landlock() -> str | None:
    """Called where Landlock is off: a filter that refuses its calls, or the kernel (already said)."""
    return messages.say("blocked_seccomp", what="the Landlock calls") if filtered() else None


def cgroups(reason: str) -> str | None:
    return messages.say("blocked_cgroup_read_only") if "Read-only file system" in reason else None


def interpreter_path(uid: int, executable: str) -> str | None:
    """The first folder on the way to the interpreter that ``uid`` (not its owner) may not enter."""
    path = Path(os.path.realpath(executable))
    for folder in reversed(path.parents):
        try:
            info = folder.stat()
        except OSError:
            continue
        if info.st_uid != uid and not info.st_mode & 0o001:
            return messages.say("blocked_interpreter", folder=folder, uid=uid, python=executable)
    return None
