# verdict: time_limit_exceeded
# attack: ignores SIGALRM, SIGTERM, SIGINT, SIGXCPU, SIGHUP and SIGUSR1, then loops
# stopped by: the parent's SIGKILL, which cannot be caught
# base: reference
import signal

for sig in (signal.SIGALRM, signal.SIGTERM, signal.SIGINT, signal.SIGXCPU, signal.SIGHUP, signal.SIGUSR1):
    signal.signal(sig, signal.SIG_IGN)


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        while True:
            pass
