"""Author tools: ``judge new`` (:mod:`.scaffold`), ``judge gen`` (:mod:`.generate`), ``judge verify``
(:mod:`.verify`) and ``judge mutate`` (:mod:`.mutation`, the mutation tools together).

They sit above judging and reporting: they run the author's trusted code (the reference, declared submissions)
in this process, and ``verify`` judges declared submissions through the real judge (:mod:`judge.pipeline`).
Nothing below imports them.
"""
