"""Mutation testing: how many one-mistake versions of the reference a problem's cases catch.

The flow, one module a step:

1. :mod:`.mutants` makes the mutants, one changed syntax-tree node each;
2. :mod:`.coverage` records which lines of the reference each case runs, so a mutant meets only those cases;
3. :mod:`.mutant_judge` judges a mutant by the judge's own rules to its first failing case: first in a fork of a warm
   unconfined runner (:mod:`.trusted_judge`, :mod:`.trusted_worker`), which decides only what the confined judge
   would decide the same way, then, for the rest, as a submission is judged, on the warm pool;
4. :mod:`.mutant_search`, for a mutant the cases let through, judges the inputs :mod:`.variants` generates (each
   case with fresh seeds and numbers, then boundary values) to tell an equivalent mutant from weak cases;
5. :mod:`.mutate` puts these together for ``judge mutate`` (killed, equivalent, survived, error, the score);
   :mod:`.mutation_check` is ``judge verify``'s step that holds each problem to its floor (its report kept by
   :mod:`.record` while nothing it read changes), and :mod:`.propose` writes the hidden case that kills a survivor
   (``judge gen --kill``).
"""
