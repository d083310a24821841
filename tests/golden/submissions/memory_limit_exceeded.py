# base: reference


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return len(bytearray(10**12))
