# verdict: memory_limit_exceeded
# attack: keeps 8 MiB memfd files until it holds gigabytes: memory no resident set shows (it never maps them)
# stopped by: the worker's memory cgroup, which charges memfd pages: the kernel kills it at the limit and the verdict reads the OOM kill (without a cgroup the seccomp filter refuses memfd_create)
# needs: cgroup
# levels: every
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
