"""What the judge needs from Python 3.11 that 3.10 lacks, in one place, so the judge runs on 3.10 as well
(``requires-python >= 3.10``: Ubuntu 22.04, Gradescope's default base image). ``tests/test_python_range.py`` checks
with ``vermin`` that nothing else needs more than 3.10, and that :class:`StrEnum310` behaves as 3.11's.
"""

from __future__ import annotations

import sys
from enum import Enum


class StrEnum310(str, Enum):
    """3.11's ``enum.StrEnum`` on 3.10: a member is its value wherever it is turned into text (``str()``,
    f-strings, ``format``), as comparisons with plain strings and JSON already are for a ``str`` mix-in."""

    __str__ = str.__str__
    __format__ = str.__format__


if sys.version_info >= (3, 11):
    import tomllib
    from enum import StrEnum  # novermin -- 3.11 only, under the version check above
else:  # pragma: no cover -- taken on 3.10 only
    import tomli as tomllib

    StrEnum = StrEnum310

__all__ = ["StrEnum", "tomllib"]
