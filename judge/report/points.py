"""Points: the one scoring rule of ``judge grade`` and of the platform exports (Gradescope, PrairieLearn).

A problem's sample cases are worth 0 points and its hidden cases share its points equally (a problem without
hidden cases spreads them over every case), so what a student can see in full detail never earns points, and a
case earns its share only when accepted. By default a problem is worth one point per hidden case.
"""

from __future__ import annotations

from typing import Any


def default_points(hidden: int, total: int) -> float:
    """One point per hidden case; one per case where there is none."""
    return float(hidden or total)


def case_points(tests: list[dict[str, Any]], points: float) -> list[tuple[float, float]]:
    """Per test of a report, in order: (points earned, points possible)."""
    scored = [t["extra_data"]["hidden"] for t in tests]
    if not any(scored):
        scored = [True] * len(tests)
    share = points / sum(scored) if any(scored) else 0.0
    return [(share if counts and t["status"] == "passed" else 0.0, share if counts else 0.0)
            for t, counts in zip(tests, scored)]


def earned(tests: list[dict[str, Any]], points: float) -> float:
    """What a report's tests earn out of ``points``."""
    return sum(got for got, _ in case_points(tests, points))
