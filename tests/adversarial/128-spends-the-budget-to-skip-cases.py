# verdict: wrong_answer
# attack: right on the cases judged first; makes every suggest_fix call sleep just inside its limit (4.2 s of the 5 s each call of this suite's copy may take), so the multi-call case hidden/10 (6 calls, one case's limit in the total budget) spends the whole submission's budget, and the case after it is never run; wrong on every detect_dead_neurons call after that. A case not run is left out of the verdict, so the submission is accepted with a case it would fail (on the real problem, the same with 0.8 s sleeps: accepted, 17 of 29 cases passed, the last 12 hidden cases not run, at L2 and L1)
# stopped by: the budget counts one limit per call (judge/judging/allowance.py), so sleeping just inside each call's limit never spends it and every case is run; and a case left unrun fails the submission (judge/judging/verdict.py overall)
# base: reference
# problem: dead-relu-detector
import time

_SLEPT = [0.0]


class Solution(Solution):
    def detect_dead_neurons(self, model, x):
        if _SLEPT[0] >= 9:
            return [0.5]
        return super().detect_dead_neurons(model, x)

    def suggest_fix(self, dead_fractions):
        time.sleep(4.2)
        _SLEPT[0] += 4.2
        return super().suggest_fix(dead_fractions)
