# verdict: time_limit_exceeded
# attack: none: blocks forever on an event nobody sets (a deadlock)
# stopped by: the parent's wall-clock cap
# base: reference
import threading


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        threading.Event().wait()
