# verdict: runtime_error
# attack: none: calls input(), which would hang a grader that left stdin open
# stopped by: stdin is /dev/null, so input() raises EOFError at once
# base: reference


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        input("layers? ")
        return super().compute_activation_stats(model, x)
