# verdict: time_limit_exceeded
# attack: makes time.time, monotonic, perf_counter and process_time return 0, then sleeps 5 s
# stopped by: the parent's own clock and /proc, which the worker cannot patch
# base: reference
import time

for name in ("time", "monotonic", "perf_counter", "process_time"):
    setattr(time, name, lambda: 0.0)
_sleep = time.sleep


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        _sleep(5)
        return super().compute_activation_stats(model, x)
