# verdict: wrong_answer
# attack: appends to every file it can name of the judge's package, the problems, the reference solutions, the history database and the calibration cache, and keeps going when one fails
# stopped by: bubblewrap's read-only view; below it, Landlock (nothing outside the scratch directory is writable, even to uid 0 with DAC_OVERRIDE gone)
# needs: L1
# base: reference
import glob
import os

import judge

CHECKOUT = os.path.dirname(os.path.dirname(judge.__file__))
PATTERNS = [
    os.path.join(os.path.dirname(judge.__file__), "**", "*.py"),
    os.path.join(CHECKOUT, "problems", "**", "*"), os.path.join(CHECKOUT, "solutions", "*.py"),
    "/tmp/pytest-of-*/*/*/problems/**/*", "/tmp/pytest-of-*/*/*/solutions/*.py",
    "/tmp/pytest-of-*/*/*/cache/*.json", "/tmp/pytest-of-*/*/judge-home*/*",
    os.path.expanduser("~root/.cache/torch-judge/*"), os.path.expanduser("~root/.local/share/torch-judge/*"),
]


def _append_everywhere():
    written = 0
    for pattern in PATTERNS:
        for path in glob.glob(pattern, recursive=True):
            try:
                with open(path, "ab") as f:
                    f.write(b"")  # opening for writing is the breach; writing nothing keeps a failed test harmless
                written += 1
            except OSError:
                pass
    return written


WRITTEN = _append_everywhere()


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        if WRITTEN:
            return super().compute_activation_stats(model, x)
        return [{"mean": 0.0, "std": 0.0, "dead_fraction": 0.0}] * 2
