# verdict: wrong_answer
# attack: reads its parent's memory through /proc/PPID/mem, where the judge keeps the expected values
# stopped by: Landlock (no other process's /proc entry; no ptrace outside its domain), no CAP_SYS_PTRACE, and a non-dumpable judge; under bubblewrap the judge is not even visible
# needs: L1
# base: reference
import os


def _stolen():
    try:
        maps = open(f"/proc/{os.getppid()}/maps").read().splitlines()
        memory = open(f"/proc/{os.getppid()}/mem", "rb", 0)
    except OSError:
        return False
    for line in maps:
        addresses, permissions = line.split()[:2]
        start, end = (int(a, 16) for a in addresses.split("-"))
        if not permissions.startswith("r") or end - start > 256 << 20:
            continue
        try:
            memory.seek(start)
            if b"dead_fraction" in memory.read(end - start):
                return True
        except (OSError, ValueError, OverflowError):
            pass
    return False


STOLEN = _stolen()


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        if STOLEN:
            return super().compute_activation_stats(model, x)
        return [{"mean": 0.0, "std": 0.0, "dead_fraction": 0.0}] * 2
