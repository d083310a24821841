"""What this machine is, as far as results and timings depend on it: torch version and CPU model."""

from __future__ import annotations

import functools
import platform
from importlib import metadata
from pathlib import Path


@functools.lru_cache(maxsize=None)  # reads package metadata: milliseconds, once per report otherwise
def torch_version() -> str:
    """Read from the installed distribution, so the judge's own process never imports torch."""
    try:
        return metadata.version("torch")
    except metadata.PackageNotFoundError:
        return "not installed"


def cpu_model() -> str:
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return platform.processor()
    return next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")), "")
