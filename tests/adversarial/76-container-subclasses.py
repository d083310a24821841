# verdict: output_format_error
# attack: returns a list subclass of dict subclasses whose __eq__ always says True
# stopped by: the worker encodes exact types only
# base: reference


class EqualList(list):
    def __eq__(self, other): return True


class EqualDict(dict):
    def __eq__(self, other): return True


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return EqualList(EqualDict(s) for s in super().compute_activation_stats(model, x))
