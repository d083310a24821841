"""A LeetCode-style judge and problem set for PyTorch training diagnostics.

Data flows one way, one package per step:
``package`` (problem folders, cases, building objects) -> ``worker`` (the confined process that runs a
submission, and the parent's view of it) -> ``judging`` (validating results, the comparison rule, verdicts,
limits) -> ``report`` (JSON first, then text, Markdown, HTML and JUnit).
"""

__version__ = "0.1.0"
