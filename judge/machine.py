"""What this installation and machine are, as far as results and timings depend on them: the judge's own
version, torch's, and the CPU model."""

from __future__ import annotations

import functools
import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path

DEVICES = """
import torch
for i in range(torch.cuda.device_count() if torch.cuda.is_available() else 0):
    print(f"cuda:{i} {torch.cuda.get_device_name(i)}")
"""


DISTRIBUTION = "torch-diagnostics-judge"
"""the judge's name on PyPI (``pyproject.toml``): its version is written there, and only there"""


def usable_cores() -> int:
    """The cores this process may run on: its affinity, which a container or ``taskset`` can make fewer than the
    machine has."""
    return len(os.sched_getaffinity(0))


@functools.lru_cache(maxsize=None)
def judge_version() -> str:
    """The installed distribution's version (``pip install -e .`` installs its metadata too); a source tree run
    without installing it says so rather than guessing."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0+unknown"


@functools.lru_cache(maxsize=None)  # reads package metadata: milliseconds, once per report otherwise
def torch_version() -> str:
    """Read from the installed distribution, so the judge's own process never imports torch."""
    return distribution_version("torch")


def distribution_version(name: str) -> str:
    """An installed distribution's version, read without importing it."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def cpu_model() -> str:
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return platform.processor()
    return next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")), "")


@functools.lru_cache(maxsize=None)
def gpus() -> tuple[str, ...]:
    """``cuda:<i> <name>`` for each GPU torch can use; asked of a throwaway interpreter, so the judge itself never
    imports torch."""
    probe = subprocess.run([sys.executable, "-c", DEVICES], capture_output=True, text=True, timeout=120)
    return tuple(probe.stdout.splitlines()) if probe.returncode == 0 else ()
