# verdict: time_limit_exceeded
# attack: raises torch to 4 threads and multiplies large matrices for 2.5 s of wall time, hoping to hide CPU in parallel threads
# stopped by: the parent sums CPU time over every thread and process of the worker
# base: reference
import time

import torch


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        torch.set_num_threads(4)
        a, end = torch.randn(800, 800), time.monotonic() + 2.5
        while time.monotonic() < end:
            a = torch.tanh(a @ a)
        return super().compute_activation_stats(model, x)
