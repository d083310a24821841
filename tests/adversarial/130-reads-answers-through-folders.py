# verdict: wrong_answer
# attack: has no solution: looks up each call's answer, under a fingerprint of its arguments, in the files an earlier student (129-hands-answers-through-folders) left in /tmp, the folder above its scratch directory, /dev/shm and /var/tmp; answers wrongly when none is there
# stopped by: Landlock (a worker writes only its own scratch directory, so nothing was left); at L2 without Landlock, each forked worker's own mount namespace, read-only but for its scratch tmpfs
# needs: L1
import hashlib
import json
import os

PLACES = ("/tmp", os.path.dirname(os.getcwd()), "/dev/shm", "/var/tmp")


def fingerprint(method, args):
    def plain(value):
        if hasattr(value, "parameters"):
            return [str(value)] + [p.tolist() for p in value.parameters()]
        return value.tolist() if hasattr(value, "tolist") else value
    return hashlib.sha1(json.dumps([method] + [plain(a) for a in args]).encode()).hexdigest()


def found():
    answers = {}
    for place in PLACES:
        try:
            with open(os.path.join(place, "adv-answers.json")) as stored:
                answers.update(json.load(stored))
        except (OSError, ValueError):
            pass
    return answers


class Solution:
    def compute_activation_stats(self, model, x):
        return found().get(fingerprint("compute_activation_stats", [model, x]), [])

    def compute_gradient_stats(self, model, x, y):
        return found().get(fingerprint("compute_gradient_stats", [model, x, y]), [])

    def diagnose(self, activation_stats, gradient_stats):
        return found().get(fingerprint("diagnose", [activation_stats, gradient_stats]), "no answer found")
