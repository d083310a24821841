# verdict: runtime_error
# attack: the daemon trick: fork, setsid, fork again, and keep spinning, so that killing the process group misses it
# stopped by: seccomp (fork and setsid fail with EPERM); bubblewrap's PID namespace would also reap it
# needs: L1
# base: reference
import os


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                while True:
                    pass
            os._exit(0)
        return super().compute_activation_stats(model, x)
