"""TF32 stays off for every call (docs/numerics.md): the worker's environment tells NVIDIA's libraries so, and the
worker sets torch's own switches before each call on CUDA. The CUDA half runs by hand in benchmarks/cuda_check.sh;
here, what a CPU machine can check."""

from __future__ import annotations

from types import SimpleNamespace

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
    said = {call["error"]["msg"] for test in report["tests"] for call in test["extra_data"]["calls"] if call.get("error")}
    assert said == {"NVIDIA_TF32_OVERRIDE='0'"}, report["tests"][0]["extra_data"]


def _torch(allowed: bool) -> SimpleNamespace:
    precision = []
    backends = SimpleNamespace(cuda=SimpleNamespace(matmul=SimpleNamespace(allow_tf32=allowed)),
                               cudnn=SimpleNamespace(allow_tf32=allowed))
    return SimpleNamespace(backends=backends, set_float32_matmul_precision=precision.append, precision=precision)


def test_each_call_on_cuda_turns_tf32_off_whatever_the_submission_set():
    torch = _torch(allowed=True)  # as a submission's earlier call may have left it
    _force_full_fp32(torch, "cuda")
    assert not torch.backends.cuda.matmul.allow_tf32 and not torch.backends.cudnn.allow_tf32
    assert torch.precision == ["highest"]
