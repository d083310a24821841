# verdict: runtime_error
# attack: while True: os.fork()
# stopped by: seccomp (fork and non-thread clone fail with EPERM)
# needs: L1
# base: reference
import os


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        while True:
            os.fork()
