# verdict: runtime_error
# attack: sends SIGKILL to its parent (the judge) and to PID 1
# stopped by: seccomp (kill fails with EPERM); under bubblewrap neither process is even visible
# needs: L1
# base: reference
import os
import signal


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        os.kill(os.getppid(), signal.SIGKILL)
        os.kill(1, signal.SIGKILL)
        return super().compute_activation_stats(model, x)
