from typing import Any, Dict, List

import torch
import torch.nn as nn


class Solution:
    def train(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, config: Dict[str, Any]) -> Dict[str, Any]:
        """Full-batch training for config['steps'] steps with the optimizer config['optimizer'] describes
        ('sgd', 'adam' or 'adamw', every keyword given), nn.CrossEntropyLoss(), clipping by global norm when
        config['clip_max_norm'] > 0 and a linear warmup over config['warmup_steps'] steps.

        Step t: clear gradients; loss_t at the start of the step (stop if it is not finite or > 1e4);
        backward; grad_norm_t before clipping; clip; lr_t = lr * min(1, (t + 1) / warmup_steps); step;
        param_norm_t after the step.
        Return {'loss', 'grad_norm', 'lr', 'param_norm': one entry per completed step,
                'final_loss': the loss after the last step (the last recorded loss if stopped),
                'stopped_at': the step that stopped the run, or -1}.
        """
        raise NotImplementedError

    def lr_range_test(self, model: nn.Module, x: torch.Tensor, labels: torch.Tensor, lrs: List[float],
                      steps: int) -> Dict[str, Any]:
        """For each lr, a fresh copy of model trained with plain SGD for `steps` steps (same stop rule).

        Return {'final_losses': the loss after each run, or -1.0 if it stopped,
                'best_lr': the lr with the smallest final loss among the runs that completed (ties: smaller lr)}.
        """
        raise NotImplementedError

    def diagnose_run(self, record: Dict[str, Any]) -> str:
        """Return 'diverged', 'exploding_gradients', 'lr_too_high', 'plateau' or 'healthy' for a record
        shaped like train's output, by the rules in the problem description (first match)."""
        raise NotImplementedError
