# verdict: compile_error
# attack: none: a syntax error
# stopped by: the import step
class Solution:
    def compute_activation_stats(self, model, x)
        return []
