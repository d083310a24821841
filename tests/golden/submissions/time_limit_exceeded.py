# base: reference


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        while True:
            pass
