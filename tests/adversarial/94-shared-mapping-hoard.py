# verdict: memory_limit_exceeded
# attack: touches every page of a 2 GiB shared anonymous mapping (shmem pages, which RLIMIT_DATA does not count)
# stopped by: the parent's resident-set poll (shared pages are resident) and the worker's memory cgroup, which charges them
# levels: every
# base: reference
import mmap


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        hoard = mmap.mmap(-1, 2 << 30, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
        for offset in range(0, len(hoard), mmap.PAGESIZE):
            hoard[offset] = 1
        return super().compute_activation_stats(model, x)
