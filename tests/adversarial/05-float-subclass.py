# verdict: output_format_error
# attack: returns a float subclass whose __eq__, __sub__ and __abs__ claim a perfect match
# stopped by: the worker encodes exact types only
# base: reference


class Close(float):
    def __eq__(self, other): return True
    def __sub__(self, other): return Close(0.0)
    def __rsub__(self, other): return Close(0.0)
    def __abs__(self): return Close(0.0)
    __hash__ = float.__hash__


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        stats = super().compute_activation_stats(model, x)
        return [{key: Close(0.0) for key in s} for s in stats]
