from typing import Any, Dict, List

import torch
import torch.nn as nn


class Solution:
    def scaler_trace(self, found_inf: List[int], init_scale: float, growth_factor: float, backoff_factor: float,
                     growth_interval: int) -> Dict[str, Any]:
        """Replay torch.amp.GradScaler's scale updates over found_inf (1 = that step overflowed).

        Return {"scales": [the scale in effect at every step], "final_scale": the scale after the last step,
        "skipped": steps that overflowed, "applied": steps that did not}.
        """
        raise NotImplementedError

    def unscale_check(self, model: nn.Module, scale: float) -> Dict[str, Any]:
        """model's .grad hold gradients of a loss multiplied by scale (no backward pass to run; some may be None).

        Return {"nonfinite": names of the parameters whose .grad holds an inf or a NaN (named_parameters() order),
        "unscaled_norm": the L2 norm of the other gradients divided by scale (rounded to 4 decimals),
        "action": 'skip_step' if any gradient is non-finite, else 'step'}.
        """
        raise NotImplementedError
