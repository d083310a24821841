# verdict: runtime_error
# attack: writes 8 MiB files into every tmpfs it can reach (/dev/shm, else its scratch directory) until it holds 2 GiB outside its resident set
# stopped by: the disk quota: every place it can write is a tmpfs of the quota's size (bubblewrap's, or the private scratch tmpfs below L2 as root; /dev/shm is read-only or out of reach) and the parent ends it above the quota; the pages also count in its memory cgroup
# needs: disk
# levels: every
# base: reference
import os


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        chunk = b"t" * (8 << 20)
        for folder in ("/dev/shm", os.getcwd()):
            try:
                for i in range(256):
                    with open(os.path.join(folder, f"adv-canary-hoard-{os.getpid()}-{i}"), "wb") as f:
                        f.write(chunk)
            except OSError:
                continue
        return super().compute_activation_stats(model, x)
