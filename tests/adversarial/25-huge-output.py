# verdict: output_format_error
# attack: returns a list of 200,000 floats (about 4 MB of JSON)
# stopped by: the parent's cap on a reply's size (1 MiB), then SIGKILL
# base: reference
import random


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return [random.random() for _ in range(200_000)]
