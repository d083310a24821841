# verdict: runtime_error
# attack: attaches to its parent with ptrace, to read or change the judge's memory
# stopped by: seccomp (ptrace fails with EPERM)
# needs: L1
# base: reference
import ctypes
import os

PTRACE_ATTACH, PTRACE_DETACH = 16, 17


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
        if libc.ptrace(PTRACE_ATTACH, os.getppid(), None, None) != 0:
            raise OSError(ctypes.get_errno(), "ptrace refused")
        libc.ptrace(PTRACE_DETACH, os.getppid(), None, None)
        return super().compute_activation_stats(model, x)
