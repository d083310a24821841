# verdict: output_format_error
# attack: none: returns a generator instead of a list
# stopped by: the worker reports anything that is not plain data as unsupported
# base: reference


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return (s for s in super().compute_activation_stats(model, x))
