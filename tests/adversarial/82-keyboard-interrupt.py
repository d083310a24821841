# verdict: runtime_error
# attack: raises KeyboardInterrupt, which a careless "except Exception" in a grader would let through
# stopped by: the worker catches BaseException around every call
# base: reference


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        raise KeyboardInterrupt
