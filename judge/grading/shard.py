"""``--shard K/N``: a deterministic slice of a class, so that N machines (a Slurm job array, a Kubernetes indexed
job) can each judge one part and ``judge merge`` can put the parts together.

A student belongs to shard ``1 + sha256(student id) mod N``: the slices are disjoint, cover the class, and a
student's shard depends only on their id, never on who else is in the folder, so a late submission does not
move anyone else to another shard (and their stored results stay where they are).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from judge.errors import BadInput


@dataclass(frozen=True)
class Shard:
    index: int
    """K, from 1"""
    count: int
    """N"""

    @classmethod
    def parse(cls, text: str) -> Shard:
        match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
        if not match or not 1 <= int(match[1]) <= int(match[2]):
            raise BadInput("bad_shard", value=text)
        return cls(int(match[1]), int(match[2]))

    def holds(self, student: str) -> bool:
        return int.from_bytes(hashlib.sha256(student.encode()).digest()[:8], "big") % self.count == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"
