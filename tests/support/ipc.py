"""What System V IPC objects and attack message queues exist on the machine: the adversarial and IPC tests
compare it before and after judging, so nothing a worker made may outlive it."""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

from judge.worker import libc

QUEUES = (b"/adv-answers", b"/adv-hoard")
"""the POSIX message queues the attacks make"""


def ipc_objects() -> set[str]:
    """Every System V object on the machine (by kind, key and id) and the attacks' POSIX message queues."""
    found = set()
    for kind in ("shm", "sem", "msg"):
        lines = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]
        found |= {f"{kind} {' '.join(line.split()[:2])}" for line in lines}
    opened = libc.load().mq_open
    opened.restype, opened.argtypes = ctypes.c_int, [ctypes.c_char_p, ctypes.c_int]
    for name in QUEUES:
        fd = opened(name, os.O_RDONLY)
        if fd >= 0:
            os.close(fd)
            found.add(f"mq {name.decode()}")
    return found
