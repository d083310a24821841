"""Learner's own cases that the judge must refuse in one line before building anything: the CLI
test (tests/test_custom_case.py) and the site's (tests/test_serve.py) send each one."""

from __future__ import annotations

import json


def _deep(levels: int) -> str:
    return '{"calls": [{"method": "compute_activation_stats", "args": [' + "[" * levels + "]" * levels + "]}]}"


def _tensor(**spec) -> str:
    x = {"kind": "tensor", "seed": 1, "shape": [2, 2], "init": "normal", **spec}
    return json.dumps({"objects": {"x": x}, "calls": [{"method": "compute_activation_stats", "args": ["$x", "$x"]}]})


BAD_CASES = [
    (_deep(100_000), "nests lists and objects more than 32 levels deep"),  # was RecursionError, exit 3; HTTP 500
    (_tensor(shape=[60000, 60000]), "objects.x.shape: expected objects of at most 4194304 elements in all"),
    (_tensor(seed=2**80), "objects.x.seed: expected an integer seed from 0 to 2**63 - 1"),  # was "worker did not start"
    (_tensor(seed=-1), "objects.x.seed: expected an integer seed from 0 to 2**63 - 1"),
    ('{"calls": [', "is not valid JSON: line 1, column 12: Expecting value"),
    (" " * (1 << 20) + "{}", "is 1025 KiB; a case may be at most 1024 KiB"),
    (_tensor(shape=[1] * 70), "objects.x.shape"),  # red team: "the worker did not start", internal_error, exit 3
    (_tensor().replace('"seed": 1', '"seed": ' + "9" * 5000), ""),  # red team: ValueError past Python's
    # 4300-digit limit on int(), "the judge failed", exit 3; any one line will do
]
"""a learner's own case the judge must refuse in one line before building anything, with the words
the line must hold; ``tests/test_serve.py`` sends each to the site too"""
