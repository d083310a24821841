# verdict: runtime_error
# attack: keeps 8 MiB memfd files until it holds gigabytes: memory no resident set shows (it never maps them)
# stopped by: the seccomp filter refuses memfd_create (its files are numbered by a counter every worker shares); at L0, with no filter, the worker's memory cgroup charges memfd pages and the kernel kills it at the limit (tests/test_limits.py)
# needs: L1
# base: reference
import os


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        kept, chunk = [], b"m" * (1 << 20)
        for i in range(250):  # RLIMIT_FSIZE caps each file at 16 MiB, RLIMIT_NOFILE their number at 256
            fd = os.memfd_create(f"hoard-{i}")
            for _ in range(8):
                os.write(fd, chunk)
            kept.append(fd)
        return super().compute_activation_stats(model, x)
