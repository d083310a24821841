# verdict: output_format_error
# attack: returns two lists nested 100,000 levels deep where two layer dicts are expected
# stopped by: the worker encodes at most 32 levels; the parent refuses replies nested deeper than 64
# base: reference


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        value = []
        for _ in range(100_000):
            value = [value]
        return [value, value]
