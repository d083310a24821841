# verdict: runtime_error
# attack: writes 256 MiB under /tmp and /var/tmp during a call, in 8 MiB files (each under RLIMIT_FSIZE)
# stopped by: bubblewrap's sized /tmp and Landlock (nothing outside the scratch directory is writable); below them, as root, the private mounts make everything read-only but the scratch tmpfs
# needs: disk
# levels: every
# base: reference
import os


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        chunk = b"t" * (8 << 20)
        for folder in ("/tmp", "/var/tmp"):
            for i in range(16):
                with open(os.path.join(folder, f"adv-canary-fill-{os.getpid()}-{i}"), "wb") as f:
                    f.write(chunk)
        return super().compute_activation_stats(model, x)
