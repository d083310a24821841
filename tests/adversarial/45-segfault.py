# verdict: runtime_error
# attack: none: dereferences a null pointer through ctypes (SIGSEGV)
# stopped by: the parent sees the worker die without replying
# base: reference
import ctypes


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return ctypes.string_at(0)
