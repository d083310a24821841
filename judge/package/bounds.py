"""The limits on a case a learner writes (``judge run --case FILE``, the site's Custom input), checked on the text
and on the parsed JSON before any object is built, so a case too deep, too large or with a seed no generator
takes gets one line naming what to change, never an internal error. ``docs/practising.md`` states
them; this module is the only place they are defined.

A seed's range holds for every case, the package's too (:meth:`judge.package.kinds.base.Checker.seed`). The size
of what a case builds is estimated from the fields that size its objects (:data:`SIZE_FIELDS`): enough to refuse a
60000×60000 tensor before a worker tries to allocate it.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, NoReturn, Protocol


class Failing(Protocol):
    """What :func:`check_elements` needs of a :class:`judge.package.kinds.base.Checker`, which imports this
    module's seed range (so it is not imported back)."""

    def fail(self, where: str, what: str) -> NoReturn: ...

MAX_CASE_BYTES = 1 << 20
"""a case file's size (the largest sample case is 15 KB)"""
MAX_DEPTH = 32
"""how deeply a case's lists and objects may nest (the package's cases nest at most 10 levels)"""
MAX_ELEMENTS = 1 << 22
"""the elements of every tensor, weight and label a case builds, together: 4 194 304 (32 MiB in float64)"""
MAX_RANK = 8
"""the dimensions of a tensor a case builds (torch refuses more than 64; the statements use at most 4)"""
SEED_MAX = 2**63 - 1
"""seeds are 0 to 2**63 - 1, what ``torch.Generator.manual_seed`` takes on every platform"""

SIZE_FIELDS: dict[str, Callable[[list[int]], int]] = {
    "shape": math.prod,
    "linear": math.prod,
    "layernorm": math.prod,
    "conv2d": lambda d: d[0] * d[1] * d[2] ** 2 if len(d) == 3 else math.prod(d),  # [c_in, c_out, k_h, k_w]
    "batchnorm1d": math.prod,
    "n": math.prod,
    "maxpool2d": lambda d: d[0] ** 2,
    "padding": lambda d: math.prod(2 * p + 1 for p in d) if len(d) == 2 else (2 * d[0] + 1) ** 2,
}
"""the fields that size what a case builds, and how many elements each asks for (a layer's weights, a padded
image's plane); a single integer counts as a list of one"""
DATA_FIELDS = frozenset({"values", "value", "args"})
"""given data, not sizes: their numbers are counted by the file's size"""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def depth(text: str) -> int:
    """How deeply ``text``'s JSON nests, read without parsing it (``json.loads`` recurses, and a deep enough
    file raised ``RecursionError``)."""
    deepest = level = 0
    for char in _STRING.sub('""', text):
        if char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


def check_size(size: int, path: Any) -> None:
    """A case file's size in bytes, before it is read whole."""
    if size > MAX_CASE_BYTES:
        from judge.errors import BadInput  # here, not above: a worker reads SEED_MAX, and never says anything

        raise BadInput("case_too_big", path=path, size=-(-size >> 10), limit=MAX_CASE_BYTES >> 10)


def check_depth(text: str, path: Any) -> None:
    """Its nesting, on the text before it is parsed."""
    if depth(text) > MAX_DEPTH:
        from judge.errors import BadInput

        raise BadInput("case_too_deep", path=path, limit=MAX_DEPTH)


def _sizes(value: Any) -> list[int] | None:
    """A size field's integers, a pair inside it flattened (a conv's ``[k_h, k_w]``), or None when it holds
    something else (the kind's own check says what)."""
    found = [value] if type(value) is int else value
    if not isinstance(found, list):
        return None
    found = [v for item in found for v in (item if isinstance(item, list) and len(item) == 2 else [item])]
    return found if found and all(type(v) is int and v >= 0 for v in found) else None


def check_elements(objects: dict[str, Any], check: Failing) -> None:
    """The elements the objects ask for, together, at most :data:`MAX_ELEMENTS`; the first field that goes over is
    named. Iterative: the objects' depth is bounded already, but nothing here needs the stack."""
    total, todo = 0, [(f"objects.{name}", spec) for name, spec in objects.items()]
    while todo:
        where, value = todo.pop(0)
        if isinstance(value, list):
            todo.extend((f"{where}[{i}]", item) for i, item in enumerate(value))
            continue
        if not isinstance(value, dict):
            continue
        for key, item in value.items():
            sizes = _sizes(item) if key in SIZE_FIELDS else None
            if sizes is not None and key == "shape" and len(sizes) > MAX_RANK:
                check.fail(f"{where}.{key}", "expect_rank", rank=MAX_RANK)
            if sizes is not None:
                total += SIZE_FIELDS[key](sizes)
                if total > MAX_ELEMENTS:
                    check.fail(f"{where}.{key}", "expect_elements", limit=MAX_ELEMENTS, total=total)
            elif key not in DATA_FIELDS:
                todo.append((f"{where}.{key}", item))
