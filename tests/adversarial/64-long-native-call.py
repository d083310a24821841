# verdict: time_limit_exceeded
# attack: one long native call (an SVD of a 2000x2000 matrix) that no in-process timer could interrupt
# stopped by: the parent's CPU-time limit, measured from /proc, and SIGKILL
# base: reference
import torch


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        torch.linalg.svd(torch.randn(2000, 2000))
        return super().compute_activation_stats(model, x)
