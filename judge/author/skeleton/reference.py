"""Reference solution for $slug: the expected values come from it ('judge gen'). Never shown to learners."""
import torch


class Solution:
    def solve(self, x: torch.Tensor) -> float:
        raise NotImplementedError("write the reference solution, then run 'judge gen $slug'")
