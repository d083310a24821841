# base: reference


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        raise ValueError("no <b>layers</b> & `stats` | here")
