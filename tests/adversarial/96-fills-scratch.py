# verdict: runtime_error
# attack: writes 256 MiB into its own scratch directory, in 8 MiB files (each under RLIMIT_FSIZE)
# stopped by: the disk quota: the scratch directory is a tmpfs of the quota's size (bubblewrap's, or the private mount below L2 as root) and the parent ends a worker above the quota (a walk of the directory where it is no tmpfs)
# levels: every
# base: reference
import os


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        chunk = b"s" * (8 << 20)
        for i in range(32):
            with open(f"fill-{i}", "wb") as f:
                f.write(chunk)
        return super().compute_activation_stats(model, x)
