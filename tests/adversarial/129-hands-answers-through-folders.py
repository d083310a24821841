# verdict: accepted
# attack: stores every answer it computes, under a fingerprint of the call's arguments, as a file in every folder a later worker might also see (/tmp, the folder above its scratch directory, /dev/shm, /var/tmp), for a later student with no solution (130-reads-answers-through-folders) to read
# stopped by: Landlock (a worker writes only its own scratch directory); at L2 without Landlock, a forked worker's own mount namespace, where all but its scratch tmpfs is read-only
# needs: L1
# base: reference
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


ANSWERS = {}


def store(key, answer):
    ANSWERS[key] = answer
    for place in PLACES:
        try:
            with open(os.path.join(place, "adv-answers.json"), "w") as out:
                json.dump(ANSWERS, out)
        except OSError:
            pass
    return answer


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        key = fingerprint("compute_activation_stats", [model, x])  # before the call changes anything
        return store(key, super().compute_activation_stats(model, x))

    def compute_gradient_stats(self, model, x, y):
        key = fingerprint("compute_gradient_stats", [model, x, y])
        return store(key, super().compute_gradient_stats(model, x, y))

    def diagnose(self, activation_stats, gradient_stats):
        key = fingerprint("diagnose", [activation_stats, gradient_stats])
        return store(key, super().diagnose(activation_stats, gradient_stats))
