# verdict: runtime_error
# attack: sends itself SIGSTOP, so that the judge waits on a process that uses no CPU
# stopped by: seccomp (kill fails with EPERM); without it the wall-clock cap would end it as a time limit
# needs: L1
# base: reference
import os
import signal


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        os.kill(os.getpid(), signal.SIGSTOP)
        return super().compute_activation_stats(model, x)
