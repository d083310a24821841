"""Run a command as on a kernel without Landlock:

    python tests/support/no_landlock.py COMMAND [ARG...]

A seccomp filter answers the three Landlock calls with ``ENOSYS``, as a kernel built without it (before 5.13, or
with Landlock left out of its ``lsm=`` list) does, and everything else as before; then it executes COMMAND, which
inherits the filter, so the judge's probe finds no Landlock and its workers get none.
"""

from __future__ import annotations

import errno
import os
import sys

from judge.worker import seccomp

CALLS = ("landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self")
ATTR_NO_NEW_PRIVS = 3


def refuse_landlock() -> None:
    lib = seccomp._library()
    ctx = lib.seccomp_init(seccomp.ACT_ALLOW)
    try:
        seccomp._check(lib.seccomp_attr_set(ctx, ATTR_NO_NEW_PRIVS, 0), "no_new_privs")  # as no kernel sets it
        for name in CALLS:
            number = lib.seccomp_syscall_resolve_name(name.encode())
            seccomp._check(lib.seccomp_rule_add_array(ctx, seccomp.ACT_ERRNO | errno.ENOSYS, number, 0, None), name)
        seccomp._check(lib.seccomp_load(ctx), "load")
    finally:
        lib.seccomp_release(ctx)


if __name__ == "__main__":
    if not sys.argv[1:]:
        sys.exit("usage: python tests/support/no_landlock.py COMMAND [ARG...]")
    refuse_landlock()
    os.execvp(sys.argv[1], sys.argv[1:])
