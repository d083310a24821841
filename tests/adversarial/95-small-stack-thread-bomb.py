# verdict: runtime_error
# attack: starts 2,000 sleeping threads with 64 KiB stacks, too small for RLIMIT_DATA to stop them, as uid 0 where RLIMIT_NPROC is not enforced
# stopped by: pids.max of the worker's cgroup ("can't start new thread"); without one, the parent counts its threads at every poll and ends it above the limit
# levels: every
# base: reference
import threading
import time


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        threading.stack_size(64 << 10)
        for _ in range(2000):
            threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
        return super().compute_activation_stats(model, x)
