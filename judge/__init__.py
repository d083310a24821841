"""A LeetCode-style judge and problem set for PyTorch training diagnostics.

Data flows one way, one layer per step, and no module imports a layer above its own (``tests/test_layers.py``):

1. below everything: ``errors``, ``messages`` (every sentence shown), ``settings`` (every ``JUDGE_*`` variable),
   ``places`` (the judge's folders) and ``machine`` (versions, CPU, GPUs);
2. ``package``: problem folders, cases, the kinds of case objects, building them;
3. ``worker``: the confined process that runs a submission, its wire format (``worker.protocol``), and the
   parent's view of it;
4. ``judging``: the plan, the warm pool of workers, driving a submission through its cases, validating what
   comes back, the comparison rule, verdicts, limits;
5. ``report``: JSON first, then text, Markdown, HTML and JUnit;
6. ``pipeline``: one submission from its file to its report, through ``judge_guarded``;
7. on top, the front ends and the author tools, each registering its own commands: ``practice`` (the learner's
   commands, progress, notebooks), ``serve`` (the local site), ``grading`` (a class), ``platforms``
   (Gradescope, PrairieLearn), ``doctor``, ``author`` (``new``, ``gen``, ``verify``, ``mutate``); ``cli`` only
   puts their commands together.

In a notebook: ``from judge import check; check("training-diagnostics", Solution)``, or ``%load_ext judge``
and a cell that starts with ``%%judge training-diagnostics``. Importing ``judge`` stays cheap (no torch): the
notebook helpers load on first use.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "__version__":  # written once, in pyproject.toml (judge.machine.judge_version)
        from judge.machine import judge_version

        return judge_version()
    if name == "check":
        from judge.practice.notebook import check

        return check
    raise AttributeError(f"module 'judge' has no attribute {name!r}")


def load_ipython_extension(shell: Any) -> None:
    """``%load_ext judge``: registers the ``%%judge`` cell magic."""
    from judge.practice.notebook import register

    register(shell)
