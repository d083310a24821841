# verdict: output_format_error
# attack: returns an object whose __eq__, __sub__, __abs__, __lt__, __float__, __round__ and tolist all lie
# stopped by: the worker encodes exact types only; the parent compares plain JSON with its own arithmetic
# base: reference


class AlwaysEqual:
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __lt__(self, other): return True
    def __le__(self, other): return True
    def __sub__(self, other): return 0.0
    def __rsub__(self, other): return 0.0
    def __abs__(self): return 0.0
    def __float__(self): return 0.0
    def __round__(self, n=None): return self
    def __bool__(self): return True
    def __hash__(self): return 0
    def tolist(self): return self


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return [{"mean": AlwaysEqual(), "std": AlwaysEqual(), "dead_fraction": AlwaysEqual()}] * 2
