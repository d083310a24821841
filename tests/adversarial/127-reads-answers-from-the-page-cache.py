# verdict: compile_error
# attack: has no solution: at import reads the table of answers an earlier student (126-hands-answers-through-the-page-cache) left in which pages of the interpreter's libpython3*.a and scipy's OpenBLAS are in the kernel's page cache (preadv2 with RWF_NOWAIT fails with EAGAIN on a page that is not), writes it back, and returns the stored answer of each call; answers wrongly when none is there
# stopped by: the seccomp filter (judge/worker/seccomp.py PAGE_CACHE): posix_fadvise and preadv2(RWF_NOWAIT) are refused, so it cannot read the table at import (EPERM); before, it was accepted after 126 ran, in judge grade or an earlier judge submit
# needs: L1
# problem: dead-relu-detector
import glob
import hashlib
import json
import os
import sys
import time
import zlib

# A table kept in which pages of files nobody reads are in the kernel's page cache, shared by every process on
# the machine whatever its namespaces: a 1 is a page read (FADV_RANDOM: no readahead), a 0 a page dropped
# (POSIX_FADV_DONTNEED, allowed on a read-only descriptor); preadv2(RWF_NOWAIT) reads a bit (EAGAIN: not cached).
# Probing a page caches it, so the table is read once, at import, and written back whole.
PAGE = 4096
_LIB = os.path.join(sys.base_prefix, "lib")
_FILES = sorted(glob.glob(os.path.join(_LIB, "python3*", "config-*", "libpython3*.a"))
                + glob.glob(os.path.join(_LIB, "python3*", "site-packages", "scipy.libs", "*.so"))
                + glob.glob(os.path.join(_LIB, "python3*", "site-packages", "cryptography", "*", "*", "_rust*.so")))
_FDS = []
for _path in _FILES:
    _fd = os.open(_path, os.O_RDONLY)
    os.posix_fadvise(_fd, 0, 0, os.POSIX_FADV_RANDOM)
    _FDS += [(_fd, page) for page in range(os.fstat(_fd).st_size // PAGE)]


def _get(bit):
    fd, page = _FDS[bit]
    try:
        return os.preadv(fd, [bytearray(1)], page * PAGE, os.RWF_NOWAIT) == 1
    except BlockingIOError:
        return False


COPIES = 3
"""each bit is kept in three pages, read as their OR: now and then the kernel drops a cached page (a 1 becomes a 0)"""
_SPAN = len(_FDS) // COPIES


def _snapshot():
    data = bytearray(_SPAN // 8)
    for bit in reversed(range(len(data) * 8)):
        data[bit >> 3] |= any(_get(bit + c * _SPAN) for c in range(COPIES)) << (bit & 7)
    size = int.from_bytes(data[:4], "little")
    try:
        return json.loads(zlib.decompress(data[4:4 + size])) if 0 < size < len(data) else {}
    except (zlib.error, ValueError):
        return {}


def _flush(table):
    blob = zlib.compress(json.dumps(table).encode(), 9)
    data = len(blob).to_bytes(4, "little") + blob
    for fd in {fd for fd, _ in _FDS}:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    for bit in range(min(len(data) * 8, _SPAN)):
        if data[bit >> 3] >> (bit & 7) & 1:
            for c in range(COPIES):
                fd, page = _FDS[bit + c * _SPAN]
                os.pread(fd, 1, page * PAGE)


TABLE = _snapshot()
for _ in range(200):  # each miss started reading its page: let every read land before the table is written back
    if all(_get(bit) for bit in range(len(_FDS))):
        break
    time.sleep(0.05)
_flush(TABLE)  # probing cached every page: put the table back for the next reader


def key(method, args):
    h = hashlib.sha1(method.encode())
    for a in args:
        for part in (list(a.parameters()) if hasattr(a, "parameters") else [a]):
            h.update(part.detach().numpy().tobytes() if hasattr(part, "detach") else repr(part).encode())
    return h.hexdigest()[:8]


def store(k, answer):
    TABLE[k] = answer
    _flush(TABLE)


class Solution:
    """no solution: every answer is read from the page cache, where an earlier student left it"""

    def detect_dead_neurons(self, model, x):
        return TABLE.get(key("detect_dead_neurons", [model, x]), [])

    def suggest_fix(self, dead_fractions):
        return TABLE.get(key("suggest_fix", [dead_fractions]), "nothing stored")
