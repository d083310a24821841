# verdict: wrong_answer
# attack: answers the first three calls (the warm-up and the sample case) correctly and the rest wrongly
# stopped by: every call of every case is compared, not just the first ones
# base: reference
CALLS = [0]


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        CALLS[0] += 1
        stats = super().compute_activation_stats(model, x)
        return stats if CALLS[0] <= 2 else [dict(s, mean=s["mean"] + 1.0) for s in stats]
