# verdict: runtime_error
# attack: sys.exit(0) inside a method
# stopped by: the worker turns SystemExit into an error reply
# base: reference
import sys


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        sys.exit(0)
