# verdict: runtime_error
# attack: appends to the judge's own worker code and plants a .pyc the judge would load next time
# stopped by: bubblewrap's read-only view; below it, Landlock (nothing outside the scratch directory is writable, even to uid 0)
# needs: L1
# base: reference
import os

import judge

PACKAGE = os.path.dirname(judge.__file__)


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        with open(os.path.join(PACKAGE, "worker", "main.py"), "a") as f:
            f.write("\n# adv-canary: the submission wrote here\n")
        with open(os.path.join(PACKAGE, "worker", "__pycache__", "runner.cpython-311.pyc"), "wb") as f:
            f.write(b"adv-canary")
        return super().compute_activation_stats(model, x)
