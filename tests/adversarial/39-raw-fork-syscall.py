# verdict: runtime_error
# attack: calls the fork system call directly through ctypes, around the Python wrappers
# stopped by: seccomp filters the system call itself
# needs: L1
# base: reference
import ctypes
import os
import platform

FORK = {"x86_64": 57, "aarch64": 1220}.get(platform.machine(), 57)  # aarch64 has no fork: clone with SIGCHLD


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        libc = ctypes.CDLL(None, use_errno=True)
        pid = libc.syscall(FORK) if FORK != 1220 else libc.syscall(220, 17, 0, 0, 0, 0)
        if pid == 0:
            os._exit(0)
        if pid < 0:
            raise OSError(ctypes.get_errno(), "fork refused")
        return super().compute_activation_stats(model, x)
