# verdict: accepted
# attack: none: prints 50 MB at import and 1 MB in every call, then answers correctly
# stopped by: nothing to stop: the parent drains output all along and keeps 64 KiB, so the worker never blocks
# base: reference
import sys

sys.stdout.write("x" * (50 << 20))


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        print("y" * (1 << 20))
        return super().compute_activation_stats(model, x)
