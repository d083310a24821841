# verdict: memory_limit_exceeded
# attack: none: asks for an 8 GiB tensor
# stopped by: RLIMIT_DATA makes the allocation fail; the allocator's error reads as a memory limit
# base: reference
import torch


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return torch.ones(8 << 30, dtype=torch.uint8).sum()
