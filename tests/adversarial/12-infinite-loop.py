# verdict: time_limit_exceeded
# attack: none: an infinite Python loop
# stopped by: the parent's CPU-time limit and SIGKILL
# base: reference


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        while True:
            pass
