# verdict: wrong_answer
# attack: returns NaN everywhere, hoping NaN compares as "not different"
# stopped by: the comparison rule (NaN matches only an expected NaN)
# base: reference
import math


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return [{key: math.nan for key in s} for s in super().compute_activation_stats(model, x)]
