# verdict: runtime_error
# attack: starts "sleep 1000 &" through a shell in a new session, to outlive the judge
# stopped by: seccomp (fork and exec fail with EPERM); bubblewrap's PID namespace would also reap it
# needs: L1
# base: reference
import subprocess


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        subprocess.Popen(["sh", "-c", "sleep 1000 &"], start_new_session=True)
        return super().compute_activation_stats(model, x)
