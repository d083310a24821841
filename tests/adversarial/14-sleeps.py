# verdict: time_limit_exceeded
# attack: time.sleep(60): no CPU used, so a CPU limit alone never fires
# stopped by: the parent's wall-clock cap
# base: reference
import time


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        time.sleep(60)
