# verdict: wrong_answer
# attack: reaches for the judge's own code beyond what a worker runs: imports judge.author.mutants, judge.judging.compare and judge.messages, and reads the source of judge/judging/compare.py; it answers as the reference only when one of them works (a stand-in for using what it found)
# stopped by: the worker's view (L2: bubblewrap binds only the files of judge/worker/footprint.py) and Landlock (L1: it may read only those files of the package), so every attempt fails and it answers nothing
# needs: L1
# base: reference
import importlib
import os


def _reached():
    seen = []
    for name in ("judge.author.mutants", "judge.judging.compare", "judge.messages"):
        try:
            importlib.import_module(name)
            seen.append(name)
        except Exception:  # noqa: BLE001 -- ImportError, PermissionError: nothing reached
            pass
    import judge.worker.main as worker

    package = os.path.dirname(os.path.dirname(worker.__file__))
    for path in ("judging/compare.py", "messages.py", "author/mutants.py"):
        try:
            with open(os.path.join(package, path)) as source:
                seen.append(source.read(64))
        except OSError:
            pass
    return seen


REACHED = _reached()


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return super().compute_activation_stats(model, x) if REACHED else []

    def compute_gradient_stats(self, model, x, y):
        return super().compute_gradient_stats(model, x, y) if REACHED else []
