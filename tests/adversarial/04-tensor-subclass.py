# verdict: output_format_error
# attack: returns 0-d tensors of a torch.Tensor subclass whose __eq__, allclose, item and tolist lie
# stopped by: the worker encodes exact types only (a subclass is never unwrapped)
# base: reference
import torch


class Liar(torch.Tensor):
    def __eq__(self, other): return True
    def allclose(self, *args, **kwargs): return True
    def item(self): return 0.0
    def tolist(self): return 0.0


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        stats = super().compute_activation_stats(model, x)
        return [{key: torch.zeros(()).as_subclass(Liar) for key in s} for s in stats]
