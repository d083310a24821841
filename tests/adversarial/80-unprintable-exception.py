# verdict: runtime_error
# attack: raises an exception whose __str__ itself raises, to break the worker's error report
# stopped by: the parent: a worker that dies instead of replying is a runtime error
# base: reference


class Nasty(Exception):
    def __str__(self):
        raise RuntimeError("no message for you")


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        raise Nasty()
