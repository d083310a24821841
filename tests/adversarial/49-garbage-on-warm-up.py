# verdict: accepted
# attack: none that helps: returns garbage on the first (untimed, unjudged) warm-up call only, then answers correctly
# stopped by: nothing to stop: the warm-up's result is never judged, and every judged call is compared
# base: reference
CALLS = [0]


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        CALLS[0] += 1
        if CALLS[0] == 1:
            return "garbage"
        return super().compute_activation_stats(model, x)
