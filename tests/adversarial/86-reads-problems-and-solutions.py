# verdict: wrong_answer
# attack: reads any file under every problem and solution folder it can name (the judge's own idea of them, the bundle, the checkout beside the package, pytest's folders), directly, through a symlink in its scratch directory and through /proc/self/root, and would answer from them
# stopped by: bubblewrap (none of them is in the view); below it, Landlock (no ancestor of a problem or solution folder is readable, and a symlink or a /proc link resolves to the same denied file)
# needs: L1
# base: reference
import glob
import os

import judge


def _roots():
    roots = set()
    try:
        from judge.package.problem import bundle, problems_roots, solutions_roots

        roots.update(str(p) for p in [*problems_roots(), *solutions_roots(), bundle()] if p)
    except Exception:
        pass
    checkout = os.path.dirname(os.path.dirname(judge.__file__))
    roots.update(os.path.join(checkout, name) for name in ("problems", "solutions", "judge_bundle"))
    roots.update(glob.glob("/tmp/pytest-of-*/*/*/problems") + glob.glob("/tmp/pytest-of-*/*/*/solutions"))
    return roots


def _files():
    for root in _roots():
        for dirpath, _, names in os.walk(root):
            for name in names:
                yield os.path.join(dirpath, name)
        yield from glob.glob(os.path.join(root, "*", "cases", "hidden", "*.json"))
        yield from glob.glob(os.path.join(root, "*.py"))


def _readable(path):
    ways = [path, "/proc/self/root" + os.path.abspath(path)]
    link = os.path.join(os.getcwd(), "adv-link")
    try:
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(path, link)
        ways.append(link)
    except OSError:
        pass
    for way in ways:
        try:
            with open(way, "rb") as f:
                if f.read(1):
                    return True
        except OSError:
            pass
    return False


STOLEN = any(_readable(path) for path in _files())


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        if STOLEN:  # a real cheat would look its answers up; answering right shows the same thing
            return super().compute_activation_stats(model, x)
        return [{"mean": 0.0, "std": 0.0, "dead_fraction": 0.0}] * 2
