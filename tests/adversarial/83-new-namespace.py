# verdict: runtime_error
# attack: asks for new user and mount namespaces, to become root in them and mount over the judge
# stopped by: seccomp (unshare fails with EPERM)
# needs: L1
# base: reference
import ctypes

CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
            raise OSError(ctypes.get_errno(), "unshare refused")
        return super().compute_activation_stats(model, x)
