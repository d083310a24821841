# verdict: runtime_error
# attack: lifts its own memory and file-size limits (a worker that runs as root could)
# stopped by: seccomp (setrlimit and prlimit64 fail with EPERM); with a uid of its own, the kernel refuses too
# needs: L1
# base: reference
import resource


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        for limit in (resource.RLIMIT_DATA, resource.RLIMIT_FSIZE, resource.RLIMIT_NPROC):
            resource.setrlimit(limit, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        return super().compute_activation_stats(model, x)
