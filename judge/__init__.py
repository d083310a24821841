"""A LeetCode-style judge and problem set for PyTorch training diagnostics.

Data flows one way, one package per step:
``package`` (problem folders, cases, building objects) -> ``worker`` (the confined process that runs a
submission, and the parent's view of it) -> ``judging`` (validating results, the comparison rule, verdicts,
limits) -> ``report`` (JSON first, then text, Markdown, HTML and JUnit). ``practice`` is the learner's side on
top: progress, the commands a learner uses, and notebooks.

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
