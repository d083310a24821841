# verdict: wrong_answer
# attack: hunts for the hidden case files (judge's environment and working directory, the package's repository, pytest's folders) and would answer from them
# stopped by: bubblewrap (none of those paths exist in the worker's view); below it, Landlock (no problem folder is readable, and no other process's /proc entry)
# needs: L1
# base: reference
import glob
import os

import judge


def _roots():
    roots = {os.path.dirname(os.path.dirname(judge.__file__))}
    for pid in (os.getppid(), 1):
        try:
            for item in open(f"/proc/{pid}/environ", "rb").read().split(b"\0"):
                if item.startswith(b"JUDGE_PROBLEMS="):
                    roots.add(os.path.dirname(item.split(b"=", 1)[1].decode()))
        except OSError:
            pass
        try:
            roots.add(os.readlink(f"/proc/{pid}/cwd"))
        except OSError:
            pass
    roots.update(glob.glob("/tmp/pytest-of-*/*/*"))
    return roots


def _stolen():
    for root in _roots():
        for path in glob.glob(os.path.join(root, "problems", "*", "cases", "hidden", "*.json")):
            try:
                if '"expected"' in open(path).read():
                    return True
            except OSError:
                pass
    return False


STOLEN = _stolen()


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        if STOLEN:  # a real cheat would look its answer up; answering right shows the same thing
            return super().compute_activation_stats(model, x)
        return [{"mean": 0.0, "std": 0.0, "dead_fraction": 0.0}] * 2
