# verdict: memory_limit_exceeded
# attack: none: raises the recursion limit to 10**9 and recurses forever (Python 3.11 keeps frames on the heap)
# stopped by: the parent's resident-memory poll
# base: reference
import sys

sys.setrecursionlimit(10**9)


def down(n):
    return down(n + 1) + 1


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return down(0)
