# verdict: output_format_error
# attack: returns a list of 100,000 long floats (about 2 MB of JSON; few enough that encoding them stays far below the time limit)
# stopped by: the parent's cap on a reply's size (1 MiB), then SIGKILL
# base: reference
class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return [0.12345678901234568] * 100_000
