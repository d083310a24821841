# verdict: wrong_answer
# attack: finds its own path in the judge's command line and reads the other (world-readable) submissions beside it
# stopped by: bubblewrap (only the worker's own copy is in its view); below it, Landlock (only the worker's own scratch directory is readable)
# needs: L1
# base: reference
import glob
import os


def _neighbours():
    found = set(glob.glob("/tmp/adv-*/submissions/*.py"))
    try:
        argv = open(f"/proc/{os.getppid()}/cmdline", "rb").read().split(b"\0")
    except OSError:
        argv = []
    for arg in argv:
        if arg.endswith(b".py"):
            found.update(glob.glob(os.path.join(os.path.dirname(arg.decode()), "*.py")))
    return found


def _stolen():
    for path in _neighbours():
        if os.path.realpath(path) == os.path.realpath(__file__):
            continue  # its own copy, which the worker may of course read
        try:
            if "OTHER-STUDENT-SECRET" in open(path).read():
                return True
        except OSError:
            pass
    return False


STOLEN = _stolen()


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        if STOLEN:  # copying the other student's answer would pass; answering right shows the same thing
            return super().compute_activation_stats(model, x)
        return [{"mean": 0.0, "std": 0.0, "dead_fraction": 0.0}] * 2
