# verdict: accepted
# attack: at import, looks for a note an earlier submission left (beside its scratch directory, in the folder above, /tmp, /var/tmp, /dev/shm, its home) and answers wrongly if it finds one; then leaves such notes everywhere it can, for the next submission judged in the same slot
# stopped by: Landlock (only the worker's own scratch directory is writable, and it is removed after the submission); bubblewrap's private /tmp and /dev; a fresh scratch directory per submission, forked or not
# needs: L1
# base: reference
import glob
import os

NOTE = "adv-canary-note"
_here = os.getcwd()
_places = {os.path.dirname(_here), os.path.dirname(os.path.dirname(_here)), "/tmp", "/var/tmp", "/dev/shm",
           os.path.expanduser("~"), os.environ.get("TMPDIR", "/tmp")}
FOUND = any(glob.glob(os.path.join(p, NOTE + "*")) for p in _places)
for _place in _places:
    try:
        with open(os.path.join(_place, f"{NOTE}-{os.getpid()}"), "w") as _f:
            _f.write("seen")
    except OSError:
        pass


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        if FOUND:
            return [{"mean": 0.0, "std": 0.0, "dead_fraction": 0.0}] * 2
        return super().compute_activation_stats(model, x)
