"""Run a command confined as a process in a Docker (or containerd) container with the default profile:

    python tests/support/container_profile.py COMMAND [ARG...]      (as root)

An emulation for the tests, where no container runtime runs: in that order, it

1. moves into a mount namespace of its own and remounts every cgroup file system read-only (Docker mounts
   ``/sys/fs/cgroup`` read-only for a container that is not privileged);
2. empties the capability bounding set but for Docker's default capabilities (``DEFAULT_CAPABILITIES``), so the
   command runs as root with those alone;
3. installs a seccomp filter that refuses what the default profiles refuse a container without
   ``CAP_SYS_ADMIN`` (moby ``profiles/seccomp/default.json``; containerd ``contrib/seccomp/seccomp_default.go``):
   ``unshare``, ``setns``, the mount calls and ``pivot_root`` fail with ``EPERM``, so does a ``clone`` with any
   namespace flag, and ``clone3`` answers ``ENOSYS`` (glibc then falls back to ``clone``). The Landlock calls pass,
   as in those profiles since moby/moby#43199 and containerd/containerd#6494 (2022).

then executes COMMAND, which inherits all three: bubblewrap cannot make its namespaces, the judge cannot make
cgroups or private mounts, and it keeps Landlock, its own seccomp filter and a uid of its own for its workers.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys

from judge.worker import libc, privileges, seccomp

CLONE_NEWNS = 0x00020000
NAMESPACE_FLAGS = {"newns": 0x00020000, "newcgroup": 0x02000000, "newuts": 0x04000000, "newipc": 0x08000000,
                   "newuser": 0x10000000, "newpid": 0x20000000, "newnet": 0x40000000}
MS_REMOUNT, MS_BIND, MS_RDONLY, MS_REC, MS_PRIVATE = 32, 4096, 1, 16384, 1 << 18
DEFAULT_CAPABILITIES = (0, 1, 3, 4, 5, 6, 7, 8, 10, 13, 18, 27, 29, 31)
"""chown, dac_override, fowner, fsetid, kill, setgid, setuid, setpcap, net_bind_service, net_raw, sys_chroot,
mknod, audit_write, setfcap: Docker's defaults (moby ``oci/caps/defaults.go``)"""
ATTR_NO_NEW_PRIVS = 3
"""``SCMP_FLTATR_CTL_NNP``: libseccomp sets ``no_new_privs`` unless told not to"""
REFUSED = ("unshare", "setns", "mount", "umount2", "pivot_root", "mount_setattr", "move_mount", "open_tree",
           "fsopen", "fsmount", "fspick")


def read_only_cgroups() -> None:
    c = libc.load()
    libc.checked(c.unshare(CLONE_NEWNS), "unshare")
    libc.checked(c.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "making / private")
    with open("/proc/self/mountinfo") as f:
        points = [line.split()[4] for line in f if line.split(" - ", 1)[1].split()[0] in ("cgroup", "cgroup2")]
    for point in points:
        libc.checked(c.mount(None, point.encode(), None, MS_REMOUNT | MS_BIND | MS_RDONLY, None), f"remounting {point}")


def default_capabilities() -> None:
    for cap in range(privileges.last_cap() + 1):
        if cap not in DEFAULT_CAPABILITIES:
            libc.checked(privileges._prctl(privileges.PR_CAPBSET_DROP, cap), f"dropping capability {cap}")


def default_seccomp() -> None:
    lib = seccomp._library()
    ctx = lib.seccomp_init(seccomp.ACT_ALLOW)
    deny = seccomp.ACT_ERRNO | errno.EPERM
    try:
        seccomp._check(lib.seccomp_attr_set(ctx, ATTR_NO_NEW_PRIVS, 0), "no_new_privs")  # Docker sets none
        for name in REFUSED:
            number = lib.seccomp_syscall_resolve_name(name.encode())
            if number >= 0:
                seccomp._check(lib.seccomp_rule_add_array(ctx, deny, number, 0, None), name)
        clone = lib.seccomp_syscall_resolve_name(b"clone")
        for flag in NAMESPACE_FLAGS.values():  # flags & flag == flag: one rule per namespace flag
            test = seccomp._ArgCmp(0, seccomp.CMP_MASKED_EQ, flag, flag)
            seccomp._check(lib.seccomp_rule_add_array(ctx, deny, clone, 1, ctypes.byref(test)), "clone")
        seccomp._check(lib.seccomp_rule_add_array(ctx, seccomp.ACT_ERRNO | errno.ENOSYS,
                                                  lib.seccomp_syscall_resolve_name(b"clone3"), 0, None), "clone3")
        seccomp._check(lib.seccomp_load(ctx), "load")
    finally:
        lib.seccomp_release(ctx)


def main(argv: list[str]) -> None:
    if not argv or os.geteuid() != 0:
        sys.exit("usage, as root: python tests/support/container_profile.py COMMAND [ARG...]")
    read_only_cgroups()
    default_capabilities()
    default_seccomp()
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    main(sys.argv[1:])
