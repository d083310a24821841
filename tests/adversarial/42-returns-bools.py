# verdict: output_format_error
# attack: returns True/False where numbers are expected (True == 1 in Python)
# stopped by: the comparison rule checks exact types: a bool is not a number
# base: reference


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return [{key: bool(value) for key, value in s.items()} for s in super().compute_activation_stats(model, x)]
