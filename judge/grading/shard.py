"""``--shard K/N``: a deterministic slice of a class, so that N machines (a Slurm job array, a Kubernetes indexed
job) can each judge one part and ``judge merge`` can put the parts together.

A student belongs to shard ``1 + sha256(student id) mod N``: the slices are disjoint, cover the class, and a
student's shard depends only on their id, never on who else is in the folder, so a late submission does not
move anyone else to another shard (and their stored results stay where they are).

``--shard auto`` takes K and N from the scheduler that started this task:

* a Slurm job array: ``SLURM_ARRAY_TASK_ID`` counted from ``SLURM_ARRAY_TASK_MIN`` in steps of
  ``SLURM_ARRAY_TASK_STEP`` (so ``--array=0-7`` and ``--array=1-8`` both give shards 1 to 8), out of
  ``SLURM_ARRAY_TASK_COUNT``;
* a Kubernetes Indexed Job: ``JOB_COMPLETION_INDEX`` (from 0) plus one, out of ``JUDGE_SHARD_COUNT``, which the
  Job's pod template sets to its ``completions`` (Kubernetes gives a pod its index but not the count).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from typing import Mapping

from judge.errors import BadInput
from judge.settings import SHARD_COUNT

AUTO = "auto"
SLURM = ("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT")
KUBERNETES_INDEX = "JOB_COMPLETION_INDEX"


def _integer(env: Mapping[str, str], name: str, default: int | None = None) -> int:
    return _whole(name, env.get(name, ""), default)


def _whole(name: str, text: str, default: int | None = None) -> int:
    """``text``, the value of the variable ``name``, as a whole number (``default`` when empty)."""
    if not text and default is not None:
        return default
    if not text.strip().isdigit():
        raise BadInput("bad_shard_env", name=name, value=text)
    return int(text)


@dataclass(frozen=True)
class Shard:
    index: int
    """K, from 1"""
    count: int
    """N"""

    @classmethod
    def parse(cls, text: str, env: Mapping[str, str] | None = None) -> Shard:
        """``K/N``, or ``auto``: from the scheduler's variables in ``env`` (default: this process's)."""
        if text.strip() == AUTO:
            return cls.from_scheduler(os.environ if env is None else env)
        match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
        if not match or not 1 <= int(match[1]) <= int(match[2]):
            raise BadInput("bad_shard", value=text)
        return cls(int(match[1]), int(match[2]))

    @classmethod
    def from_scheduler(cls, env: Mapping[str, str]) -> Shard:
        if SLURM[0] in env:
            first, step = _integer(env, "SLURM_ARRAY_TASK_MIN", 0), _integer(env, "SLURM_ARRAY_TASK_STEP", 1) or 1
            offset = _integer(env, SLURM[0]) - first
            index, count = offset // step + 1, _integer(env, SLURM[1])
            if offset < 0 or offset % step or index > count:
                raise BadInput("bad_shard_slurm", task=env[SLURM[0]], first=first, step=step, count=count)
            return cls(index, count)
        if KUBERNETES_INDEX in env:
            if not SHARD_COUNT.is_set(env):
                raise BadInput("shard_count_missing", index=KUBERNETES_INDEX, count=SHARD_COUNT.name)
            index, count = _integer(env, KUBERNETES_INDEX) + 1, _whole(SHARD_COUNT.name, SHARD_COUNT.raw(env) or "")
            if index > count:
                raise BadInput("bad_shard_index", index=index - 1, count=count, name=SHARD_COUNT.name)
            return cls(index, count)
        raise BadInput("no_shard_env", slurm=SLURM[0], kubernetes=KUBERNETES_INDEX)

    def holds(self, student: str) -> bool:
        return int.from_bytes(hashlib.sha256(student.encode()).digest()[:8], "big") % self.count == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"
