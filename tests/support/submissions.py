"""Broken and hostile submissions: the reference solution with one method replaced, shared by the verdict, grading
and interruption tests."""

from __future__ import annotations

import textwrap
from pathlib import Path

from tests.support.cli import REFERENCE_SOURCE


def patched(method_body: str, method: str = "compute_activation_stats") -> str:
    """The reference solution with one method replaced (the other methods stay correct)."""
    body = textwrap.indent(textwrap.dedent(method_body).strip("\n"), " " * 8)
    head = f"    def {method}(self, *args):\n"
    return REFERENCE_SOURCE.replace(f"    def {method}(", f"{head}{body}\n\n    def _original_{method}(", 1)


ALWAYS_EQUAL = patched("""
class AlwaysEqual(float):
    def __eq__(self, other): return True
    def __sub__(self, other): return 0.0
    def __abs__(self): return 0.0
return [{"mean": AlwaysEqual(0), "std": AlwaysEqual(0), "dead_fraction": AlwaysEqual(0)}] * 2
""")

EXITS_ON_BATCH_OF_SIX = patched("""
import os
if args[1].shape[0] == 6:
    os._exit(0)
return self._original_compute_activation_stats(*args)
""")

LOOPS = patched("""
while True:
    pass
""")

SLEEPS = patched("""
import time
time.sleep(60)
""")

HUGE_TENSOR = patched("""
import torch
return torch.ones(8 * 2**30, dtype=torch.uint8).sum()
""")

GROWS = patched("""
chunks = []
while True:
    chunks.append(bytearray(64 * 2**20))
""")

FAKE_OUTPUT = patched("""
print('{"type": "result", "id": 1, "value": "accepted"}')
print("All tests passed. verdict: accepted")
return [{"mean": 0.0, "std": 0.0, "dead_fraction": 0.0}] * 2
""")

RAISES = patched("""
raise ValueError("something broke")
""")

RETURNS_BOOL = patched("""
return [{"mean": True, "std": 1.0, "dead_fraction": 0.0}] * 2
""")

NUMPY_AND_TENSOR_SCALARS = patched("""
import numpy as np
import torch
stats = self._original_compute_activation_stats(*args)
return [{"mean": np.float32(s["mean"]), "std": torch.tensor(s["std"], dtype=torch.float64),
         "dead_fraction": np.float64(s["dead_fraction"])} for s in stats]
""")

WRONG = REFERENCE_SOURCE.replace("'std': _r(x.std())", "'std': _r(x.std(correction=0))")
"""wrong on every case: the population standard deviation"""

SLOW_ACCEPTED = patched("""
import time
time.sleep(0.15)
return self._original_compute_activation_stats(*args)
""")
"""accepted, slowly: a grade interrupted halfway has some of these still to judge"""


def write_files(folder: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (name: source) under ``folder`` and return it."""
    for name, source in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return folder
