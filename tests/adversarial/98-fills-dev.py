# verdict: runtime_error
# attack: writes 256 MiB into /dev and /dev/shm (bubblewrap's /dev is a tmpfs with no size), in 8 MiB files
# stopped by: bubblewrap's /dev is remounted read-only; Landlock lets nothing outside the scratch directory be written; below them, as root, the private mounts make /dev read-only
# needs: disk
# levels: every
# base: reference
import os


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        chunk = b"d" * (8 << 20)
        for folder in ("/dev", "/dev/shm"):
            for i in range(16):
                with open(os.path.join(folder, f"adv-canary-fill-{os.getpid()}-{i}"), "wb") as f:
                    f.write(chunk)
        return super().compute_activation_stats(model, x)
