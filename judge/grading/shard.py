"""``--shard K/N``: a deterministic slice of a class, so that N machines (a Slurm job array, a Kubernetes indexed
job) can each judge one part and ``judge merge`` can put the parts together.

A student belongs to shard ``1 + sha256(student id) mod N``: the slices are disjoint, cover the class, and a
student's shard depends only on their id, never on who else is in the folder, so a late submission does not
move anyone else to another shard (and their stored results stay where they are).

``K/N`` is read strictly: plain ASCII digits, no sign, space or leading zero, ``1 <= K <= N <= MAX_SHARDS``.
A spec that Python's ``int`` would stretch to fit (`` 1/2``, ``+1/2``, ``01/2``, ``1_0/20``, ``١/٢``) is refused,
so the text stored in a shard's summary is the one ``judge merge`` reads back.

``--shard auto --shards N`` takes the task's index from the scheduler that started it (Slurm's
``SLURM_ARRAY_TASK_ID``, a Kubernetes Indexed Job's ``JOB_COMPLETION_INDEX``) and the count N from the command
line, and judges shard ``(index mod N) + 1`` of N. The count is never read from the scheduler: a Slurm task
resubmitted alone (``sbatch --array=3``) sees ``SLURM_ARRAY_TASK_COUNT=1`` and ``MIN=MAX=3``, nothing of the
array it belonged to, and Kubernetes gives a pod its index but not the count. With the count in the job file,
any N consecutive indices cover the class whatever the first one, and a rerun of any index, or any subset of
indices, judges the same shard it judged the first time.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from typing import Mapping

from judge.errors import BadInput

AUTO = "auto"
INDEXES = ("SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX")
"""the variables a scheduler sets to a task's index, in the order they are looked for"""
MAX_SHARDS = 100_000
_NUMBER = r"[1-9][0-9]{0,5}"
_SPEC = re.compile(rf"({_NUMBER})/({_NUMBER})", re.ASCII)


def count_of(text: str) -> int:
    """``--shards``: a whole number from 1 to :data:`MAX_SHARDS`, in plain digits."""
    if not re.fullmatch(_NUMBER, text, re.ASCII) or int(text) > MAX_SHARDS:
        raise BadInput("bad_shards", value=text, most=MAX_SHARDS)
    return int(text)


@dataclass(frozen=True)
class Shard:
    index: int
    """K, from 1"""
    count: int
    """N"""

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``K/N``, exactly as :func:`str` writes it; anything else is bad input."""
        match = _SPEC.fullmatch(text)
        if not match or not 1 <= int(match[1]) <= int(match[2]) <= MAX_SHARDS:
            raise BadInput("bad_shard", value=text, most=MAX_SHARDS)
        return cls(int(match[1]), int(match[2]))

    @classmethod
    def chosen(cls, text: str | None, count: str | None, env: Mapping[str, str] | None = None) -> Shard | None:
        """What ``--shard`` and ``--shards`` ask for: None (the whole class), ``K/N``, or ``auto`` with N in
        ``count`` and the index from the scheduler's variables in ``env`` (default: this process's)."""
        if text is None:
            if count is not None:
                raise BadInput("shards_without_auto")
            return None
        if text != AUTO:
            shard = cls.parse(text)
            if count is not None:
                raise BadInput("shards_without_auto")
            return shard
        if count is None:
            raise BadInput("shard_auto_needs_count")
        return cls.from_scheduler(count_of(count), os.environ if env is None else env)

    @classmethod
    def from_scheduler(cls, count: int, env: Mapping[str, str]) -> Shard:
        """Shard ``(index mod count) + 1`` of ``count``, the index from the first of :data:`INDEXES` that is set."""
        name = next((n for n in INDEXES if n in env), None)
        if name is None:
            raise BadInput("no_shard_env", slurm=INDEXES[0], kubernetes=INDEXES[1])
        text = env[name]
        if not re.fullmatch(r"0|[1-9][0-9]{0,8}", text, re.ASCII):
            raise BadInput("bad_shard_env", name=name, value=text)
        return cls(int(text) % count + 1, count)

    def holds(self, student: str) -> bool:
        return int.from_bytes(hashlib.sha256(student.encode()).digest()[:8], "big") % self.count == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"
