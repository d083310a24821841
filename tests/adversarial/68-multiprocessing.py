# verdict: runtime_error
# attack: starts a multiprocessing.Process to work outside the measured process
# stopped by: seccomp (fork fails with EPERM)
# needs: L1
# base: reference
import multiprocessing


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        worker = multiprocessing.Process(target=sum, args=([1, 2],))
        worker.start()
        worker.join()
        return super().compute_activation_stats(model, x)
