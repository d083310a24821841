"""Mutation testing: how many one-mistake versions of the reference a problem's cases catch.

The flow, one module a step:

1. :mod:`.mutants` makes the mutants, one changed syntax-tree node each;
2. :mod:`.coverage` records which lines of the reference each case runs, so a mutant meets only those cases;
3. :mod:`.mutant_judge` judges a mutant as a submission is judged, on the warm pool, to its first failing case;
4. :mod:`.mutant_search`, for a mutant the cases let through, judges the inputs :mod:`.variants` generates (each
   case with fresh seeds and numbers, then boundary values) to tell an equivalent mutant from weak cases;
5. :mod:`.mutate` puts these together for ``judge mutate`` (killed, equivalent, survived, error, the score);
   :mod:`.mutation_check` is ``judge verify``'s step that holds each problem to its floor, and :mod:`.propose`
   writes the hidden case that kills a survivor (``judge gen --kill``).
"""
