# verdict: time_limit_exceeded
# attack: raises torch to 4 threads and multiplies large matrices until the process has used 3 s of CPU, about 0.75 s a thread, hoping to hide CPU in parallel threads
# stopped by: the parent sums CPU time over every thread and process of the worker
# base: reference
import time

import torch


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        # CPU time, not wall time: on a busy machine a wall-clock loop gets little CPU and would pass honestly
        torch.set_num_threads(4)
        a, end = torch.randn(800, 800), time.process_time() + 3.0
        while time.process_time() < end:
            a = torch.tanh(a @ a)
        return super().compute_activation_stats(model, x)
