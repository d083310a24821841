# verdict: runtime_error
# attack: os._exit(0) in the middle of a case, after answering its first call
# stopped by: the parent needs one reply per call; an end without one is a runtime error
# base: reference
import os


class Solution(Solution):
    def compute_gradient_stats(self, model, x, y):
        os._exit(0)
