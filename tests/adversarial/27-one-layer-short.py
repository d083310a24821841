# verdict: wrong_answer
# attack: none: returns one layer too few
# stopped by: the comparison rule (list lengths must match)
# base: reference


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return super().compute_activation_stats(model, x)[:-1]
