from typing import Dict, List, Optional


class Solution:
    def summarize(self, log: List[Dict[str, Optional[float]]]) -> Dict[str, float]:
        """Summarise a training log: one record per step, {'loss', 'grad_norm', 'param_norm'}.

        'loss' is None where the logged loss was not finite. F = the records before
        the first None loss (all of them if there is none). Return:
          'first_nonfinite' -- index of the first None loss, or -1 (an int)
          'improvement'     -- (head - tail) / head over F's losses, with w = max(1, len(F) // 5),
                               head = mean of the first w, tail = mean of the last w (0.0 if len(F) < 2)
          'oscillation'     -- share of consecutive pairs of loss differences with opposite signs
                               (product < 0), over len(F) - 2 pairs (0.0 if len(F) < 3)
          'grad_spike'      -- max over t >= 1 of grad_norm_t / statistics.median(grad_norm_0..t-1)
                               (1.0 if len(F) < 2)
          'weight_growth'   -- param_norm of F's last record / param_norm of its first (1.0 if len(F) < 2)
        Each float rounded to 4 decimals.
        """
        raise NotImplementedError

    def diagnose(self, summary: Dict[str, float]) -> Dict[str, str]:
        """Return {'diagnosis': ..., 'action': ...} from the first rule that matches.

        Check the rules in the priority order given in the problem description.
        """
        raise NotImplementedError
