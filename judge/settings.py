"""Every ``JUDGE_*`` environment variable the judge reads, with its default and its meaning; the only module that
reads them.

A variable set to the empty string counts as not set. ``judge doctor`` lists each one with its value and whether
it is set; ``docs/configuration.md`` gives the same table (a test keeps the two in step).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping



@dataclass(frozen=True)
class Setting:
    """One environment variable: its name, what it means when unset, and what it does."""

    name: str
    default: str
    """what holds when it is not set, in words"""
    meaning: str
    """what it controls, in one sentence"""
    choices: tuple[str, ...] = ()
    """the values it may take (the first is the default); empty: any text"""

    def raw(self, env: Mapping[str, str] | None = None) -> str | None:
        """Its value in ``env`` (default: this process's environment), or None when it is unset or empty."""
        return (os.environ if env is None else env).get(self.name) or None

    def is_set(self, env: Mapping[str, str] | None = None) -> bool:
        return self.raw(env) is not None

    def path(self) -> Path | None:
        """Its value as a folder, or None when unset."""
        value = self.raw()
        return Path(value) if value is not None else None

    def folders(self) -> list[Path]:
        """Its value as a list of folders separated by ``os.pathsep``, as written (empty when unset)."""
        return [Path(p) for p in (self.raw() or "").split(os.pathsep) if p]

    def choice(self) -> str:
        """Its value, one of :attr:`choices` (the first when unset); any other value is bad input, said in one line."""
        value = self.raw() or self.choices[0]
        if value not in self.choices:
            from judge.errors import BadInput  # here, not above: a worker imports this module, never the messages

            raise BadInput("bad_setting", name=self.name, value=value, choices=", ".join(self.choices))
        return value

    def lenient(self) -> str:
        """Its value where it is one of :attr:`choices`, else the first: a setting whose bad value must never stop
        a command (``JUDGE_LANG``: the language a refusal would be said in)."""
        value = self.raw()
        return value if value in self.choices else self.choices[0]

    def off(self) -> bool:
        """Whether it is set to ``off`` (the switches that turn a confinement layer off)."""
        return self.raw() == "off"


HOME = Setting("JUDGE_HOME", "the platform's user-data folder: $XDG_DATA_HOME/torch-judge or ~/.local/share/torch-judge "
               "on Linux, ~/Library/Application Support/torch-judge on macOS, %LOCALAPPDATA%\\torch-judge on Windows",
               "the folder of the learner's attempt history and the code kept with each attempt")
CACHE = Setting("JUDGE_CACHE", "$XDG_CACHE_HOME/torch-judge, or ~/.cache/torch-judge",
                "the folder of the cache: the reference's measured times, from which time limits are set")
PROBLEMS = Setting("JUDGE_PROBLEMS", "only the bundled problems",
                   f"folders of problem packages, searched in order before the bundled ones (several: separated by "
                   f"'{os.pathsep}'); a slug found earlier shadows the same slug later, and each folder must exist")
SOLUTIONS = Setting("JUDGE_SOLUTIONS", "the solutions/ folder beside each problem folder",
                    f"folders of reference solutions (one file per problem, named after its slug), searched before the solutions/ folder beside each "
                    f"problem folder (several: separated by '{os.pathsep}'); each folder must exist")
CALIBRATION = Setting("JUDGE_CALIBRATION", "machine",
                      "machine: measure the reference's times on each machine; pinned: use a calibration of the same "
                      "problem, torch and device measured on any machine (an image built once), measuring only where "
                      "there is none", ("machine", "pinned"))
MAX_LEVEL = Setting("JUDGE_MAX_LEVEL", "L2", "the strongest security level workers may get (the judge uses the "
                    "strongest that works here, up to this one)", ("L2", "L1", "L0"))
CGROUPS = Setting("JUDGE_CGROUPS", "cgroups where the machine allows them",
                  "off: no cgroup for workers even where the machine allows them (to test the fallbacks)")
PRIVATE_MOUNTS = Setting("JUDGE_PRIVATE_MOUNTS", "private mounts where the machine allows them (below L2 as "
                         "root; under L2 for the workers a warm process forks)",
                         "off: no mount namespace and private scratch tmpfs of a worker's own, below L2 or for a "
                         "warm process's workers under L2 (to test the fallbacks)")
IPC_NAMESPACES = Setting("JUDGE_IPC_NAMESPACES",
                         "an IPC namespace of its own for every worker where the machine allows one",
                         "off: workers forked by one warm process share its IPC namespace, and below L2 every worker "
                         "shares the machine's (to test that the seccomp filter alone closes System V IPC)")

LANG = Setting("JUDGE_LANG", "en", "the language of the learner's commands where --lang is not given, and of "
               "'judge --help' and usage errors: en or zh (any other value: English)", ("en", "zh"))

SETTINGS: tuple[Setting, ...] = (HOME, CACHE, PROBLEMS, SOLUTIONS, CALIBRATION, MAX_LEVEL, CGROUPS, PRIVATE_MOUNTS,
                                 IPC_NAMESPACES, LANG)
"""every one, in the order ``judge doctor`` and the docs list them"""
