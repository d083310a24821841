# verdict: runtime_error
# attack: raises an exception with a 10 MB message
# stopped by: the worker cuts messages to 2,000 characters, and the parent keeps only strings of that size
# base: reference


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        raise ValueError("x" * 10_000_000)
