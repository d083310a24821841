# verdict: memory_limit_exceeded
# attack: none: grows memory 64 MB at a time until something stops it
# stopped by: the parent's resident-memory poll (or RLIMIT_DATA, whichever comes first)
# base: reference


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        chunks = []
        while True:
            chunks.append(bytearray(64 << 20))
