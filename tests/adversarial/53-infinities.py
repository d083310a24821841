# verdict: wrong_answer
# attack: returns inf, -inf and 1e999 (which JSON reads back as inf), hoping they compare as close to anything
# stopped by: the comparison rule (an infinity matches only the same infinity)
# base: reference


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        stats = super().compute_activation_stats(model, x)
        return [{"mean": float("inf"), "std": -float("inf"), "dead_fraction": 1e999} for _ in stats]
