# verdict: accepted
# attack: none: reseeds and consumes the RNG, sets float64 as the default dtype and turns autograd off at import
# stopped by: nothing to stop: inputs are built with explicit dtypes and their own generators, so only the submission's own code sees the change
# base: reference
import torch

torch.manual_seed(1234)
torch.rand(1000)
torch.set_default_dtype(torch.float64)
torch.set_grad_enabled(False)


class Solution(Solution):
    def compute_gradient_stats(self, model, x, y):
        with torch.enable_grad():
            return super().compute_gradient_stats(model, x, y)
