# verdict: time_limit_exceeded
# attack: an endless loop of large matrix products, in native code that no Python signal handler interrupts
# stopped by: the parent's CPU-time limit, measured from /proc, and SIGKILL
# base: reference
import torch


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        a = torch.randn(1000, 1000)
        while True:
            a = torch.tanh(a @ a)
