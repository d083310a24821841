"""TF32 stays off for every call (docs/numerics.md): the worker's environment tells NVIDIA's libraries so, and the
worker sets torch's own switches before each call on CUDA. The CUDA half runs by hand in benchmarks/cuda_check.sh;
here, what a CPU machine can check."""

from __future__ import annotations

import ast
import inspect

from judge.worker import main as worker_main
from judge.worker.main import _force_full_fp32
from tests.support.cli import REFERENCE_SOURCE, SLUG, judge_json

TELLS = REFERENCE_SOURCE + '''

import os
class Solution(Solution):
    def compute_activation_stats(self, model, x):
        raise RuntimeError("NVIDIA_TF32_OVERRIDE=" + repr(os.environ.get("NVIDIA_TF32_OVERRIDE")))
'''


def test_a_worker_is_started_with_tf32_off_for_nvidia_libraries(toy_root, write_submission):
    _, report = judge_json(["run", SLUG, str(write_submission(TELLS))], toy_root)
    calls = [call for test in report["tests"] for call in test["extra_data"]["calls"]]
    said = {call["error"]["msg"] for call in calls if call.get("error")}
    assert said == {"NVIDIA_TF32_OVERRIDE='0'"}, report["tests"][0]["extra_data"]


def test_each_call_on_cuda_turns_tf32_off_whatever_the_submission_set():
    """As a submission's earlier call may have left them: TF32 asked for through torch's per-backend switches
    (cuDNN's convolutions and RNNs, CUDA matmuls). The switches are plain flags, settable without a GPU."""
    import torch

    switches = (torch.backends.cuda.matmul, torch.backends.cudnn.conv, torch.backends.cudnn.rnn)
    before = [s.fp32_precision for s in switches]
    try:
        torch.backends.cudnn.fp32_precision = "tf32"
        for switch in switches:
            switch.fp32_precision = "tf32"
        _force_full_fp32(torch, "cuda")
        assert [s.fp32_precision for s in switches] == ["ieee"] * 3
    finally:
        torch.backends.cudnn.fp32_precision = "none"
        for switch, value in zip(switches, before):
            switch.fp32_precision = value


def test_the_worker_forces_it_before_every_call_not_once():
    loop = next(node for node in ast.walk(ast.parse(inspect.getsource(worker_main)))
                if isinstance(node, ast.For) and ast.unparse(node.iter) == "incoming")
    assert "_force_full_fp32(torch, device)" in [ast.unparse(n) for n in ast.walk(loop) if isinstance(n, ast.Call)]
