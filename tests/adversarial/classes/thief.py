# attack: graded right after a victim in the same job slot, it looks for the victim's code in its own memory (every
#   anonymous mapping it inherited from the warm process, read with ctypes) and in every file it can read in the
#   places workers share (its scratch folder's parents, /tmp, /var/tmp, /dev/shm, its home)
# verdict: runtime_error when it finds the victim's marker; wrong_answer when it finds none; output_format_error
#   when its own scanner fails its self-check (it could not have found anything), so the test can tell the three apart
# stopped by: the warm process never holds a submission's bytes (the forked worker reads them from the judge's memfd
#   after the fork); Landlock and a fresh scratch folder per worker
import ctypes
import os
import re

WANTED = re.compile(rb"VICTIM-SECRET-[0-9]{2}-END")
"""the victim's marker; this pattern's own text does not match it"""
SELF = b"SELF-CHECK-" + os.urandom(8).hex().encode() + b"-OK"
"""made now, so it lies in this process's heap: the scanner must find it"""
CHUNK = 1 << 20


def _regions():
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            start, end = (int(x, 16) for x in fields[0].split("-"))
            named = fields[5] if len(fields) > 5 else ""
            if fields[1].startswith("r") and fields[4] == "0" and named in ("", "[heap]", "[stack]"):
                yield start, end


def _memory_has(pattern) -> bool:
    for start, end in _regions():
        at = start
        while at < end:
            size = min(CHUNK + 64, end - at)
            if pattern(ctypes.string_at(at, size)):
                return True
            at += CHUNK
    return False


def _files_have() -> bool:
    here = os.getcwd()
    places = {os.path.dirname(here), os.path.dirname(os.path.dirname(here)), here, "/tmp", "/var/tmp", "/dev/shm",
              os.path.expanduser("~")}
    for place in places:
        for top, _, files in os.walk(place):
            for name in files:
                try:
                    with open(os.path.join(top, name), "rb") as f:
                        if WANTED.search(f.read(4 << 20)):
                            return True
                except OSError:
                    pass
    return False


SCANNER_WORKS = _memory_has(lambda chunk: SELF in chunk)
FOUND = _memory_has(lambda chunk: WANTED.search(chunk) is not None) or _files_have()


class Solution(Solution):  # noqa: F821 -- the reference's, prepended by the test
    def compute_activation_stats(self, model, x):
        if not SCANNER_WORKS:
            return [{"mean": True, "std": 1.0, "dead_fraction": 0.0}] * 2
        if FOUND:
            raise RuntimeError("found the victim's code")
        return [{"mean": 0.0, "std": 0.0, "dead_fraction": 0.0}] * 2
