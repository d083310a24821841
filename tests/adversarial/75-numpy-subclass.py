# verdict: output_format_error
# attack: returns a numpy.float64 subclass whose comparisons lie
# stopped by: the worker unwraps only genuine NumPy scalars
# base: reference
import numpy as np


class Close(np.float64):
    def __eq__(self, other): return True
    def __sub__(self, other): return Close(0.0)
    def __abs__(self): return Close(0.0)
    __hash__ = np.float64.__hash__


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return [{key: Close(0.0) for key in s} for s in super().compute_activation_stats(model, x)]
