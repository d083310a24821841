# verdict: runtime_error
# attack: starts threads until something stops it
# stopped by: RLIMIT_DATA (every thread stack counts) and, with a uid of its own, RLIMIT_NPROC: "can't start new thread"
# base: reference
import threading
import time


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        while True:
            threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
