"""Which expected values differ between the CPU and another device, and by how much.

    python benchmarks/cuda_differences.py [--device cuda] [--output FILE] [SLUG ...]

For every case that carries expectations for both ``cpu`` and the device, every numeric field is compared.
Prints, per problem, the number of fields compared, those that differ by more than 1e-6 and those that differ by
more than the problem's comparison tolerance, then the largest differences; decisions (strings) that differ are
listed too. Part of ``benchmarks/cuda_check.sh``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from judge.package.problem import Problem, available, find_problem
from conditions import reported  # this folder: the machine and load, printed with the figures

TINY = 1e-6
SHOWN = 5


@dataclass
class Tally:
    compared: int = 0
    over_tiny: int = 0
    over_tolerance: int = 0
    missing: int = 0
    """cases without expectations on one of the two devices"""
    largest: list[tuple[float, str]] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)


def leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, f"{path}[{index}]")
    else:
        yield path, value


def tally(problem: Problem, device: str) -> Tally:
    result = Tally()
    for case in problem.cases:
        cpu, other = case.outputs("cpu"), case.outputs(device)
        if cpu is None or other is None:
            result.missing += 1
            continue
        theirs = dict(leaves(other))
        for path, want in leaves(cpu):
            got = theirs.get(path)
            where = f"{case.id} {path}"
            if isinstance(want, str) or isinstance(got, str) or got is None:
                if got != want:
                    result.decisions.append(f"{where}: cpu {want!r}, {device} {got!r}")
                continue
            result.compared += 1
            error = abs(float(got) - float(want))
            result.over_tiny += error > TINY
            result.over_tolerance += error > problem.tolerance.bound(float(want))
            result.largest.append((error, where))
    result.largest = sorted(result.largest, reverse=True)[:SHOWN]
    return result


def report(slugs: list[str], device: str) -> str:
    lines = [f"| problem | fields | > {TINY:g} | > tolerance | cases missing an expectation |", "|---|---|---|---|---|"]
    details = []
    for slug in slugs:
        found = tally(find_problem(slug), device)
        lines.append(f"| {slug} | {found.compared} | {found.over_tiny} | {found.over_tolerance} | {found.missing} |")
        details += [f"{slug}: |{device} - cpu| = {error:.3g} at {where}" for error, where in found.largest if error > 0]
        details += [f"{slug}: decision differs at {text}" for text in found.decisions]
    return "\n".join(lines + [""] + details) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*", help="problems (default: all)")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--output", type=Path, help="also write the table here")
    args = parser.parse_args()
    text = report(args.slugs or available(), args.device)
    sys.stdout.write(text)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    with reported():
        code = main()
    sys.exit(code)
