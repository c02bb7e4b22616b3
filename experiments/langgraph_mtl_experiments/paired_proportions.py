"""Two arms on the same tasks as paired proportions: each arm's passes, the difference with
Newcombe's interval for paired data (1998, method 10: the arms' Wilson intervals combined with
the correlation of their outcomes) and the exact McNemar p. Each task counts once, by its first
attempt; a task only one arm ran is left out."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from math import sqrt
from pathlib import Path
from typing import Any

from langgraph_mtl_experiments.paired import first_attempts, mcnemar_exact
from langgraph_mtl_experiments.passk import wilson_interval

__all__ = ["ArmComparison", "compare_arms", "comparison_table", "labelled_rows", "newcombe"]


@dataclass(frozen=True)
class ArmComparison:
    """``first`` against ``second`` on the tasks both ran."""

    first: str
    second: str
    tasks: int
    first_passed: int
    second_passed: int
    gained: int  # passed by the first arm only
    lost: int  # passed by the second arm only
    difference: float  # the first arm's pass rate minus the second's
    low: float
    high: float
    p_value: float


def newcombe(
    both: int, first_only: int, second_only: int, neither: int, z: float = 1.96
) -> tuple[float, float]:
    """Newcombe's interval (method 10) for the difference of two paired proportions, from the
    counts of the 2x2 table of outcomes (95% for the default ``z``)."""
    n = both + first_only + second_only + neither
    if n == 0:
        raise ValueError("no task was run by both arms")
    p1, p2 = (both + first_only) / n, (both + second_only) / n
    l1, u1 = wilson_interval(both + first_only, n, z)
    l2, u2 = wilson_interval(both + second_only, n, z)
    margins = (both + first_only) * (second_only + neither) * (both + second_only)
    margins *= first_only + neither
    cross = both * neither - first_only * second_only
    corrected = cross - n / 2 if cross > n / 2 else min(cross, 0)
    phi = corrected / sqrt(margins) if margins else 0.0
    below = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    above = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    return p1 - p2 - sqrt(below), p1 - p2 + sqrt(above)


def compare_arms(rows: Iterable[dict[str, Any]], first: str, second: str) -> ArmComparison:
    """``first`` against ``second`` (conditions of ``rows``) on the tasks both ran."""
    firsts = first_attempts(rows)
    missing = [arm for arm in (first, second) if arm not in firsts]
    if missing:
        known = ", ".join(sorted(firsts)) or "none"
        raise ValueError(f"no rows of {', '.join(missing)} (the rows hold: {known})")
    ours, theirs = firsts[first], firsts[second]
    keys = sorted(ours.keys() & theirs.keys())
    pairs = [(bool(ours[k]["passed"]), bool(theirs[k]["passed"])) for k in keys]
    both = sum(a and b for a, b in pairs)
    gained = sum(a and not b for a, b in pairs)
    lost = sum(b and not a for a, b in pairs)
    low, high = newcombe(both, gained, lost, len(pairs) - both - gained - lost)
    return ArmComparison(
        first=first,
        second=second,
        tasks=len(pairs),
        first_passed=both + gained,
        second_passed=both + lost,
        gained=gained,
        lost=lost,
        difference=(gained - lost) / len(pairs),
        low=low,
        high=high,
        p_value=mcnemar_exact(gained, lost),
    )


def labelled_rows(spec: str) -> list[dict[str, Any]]:
    """The rows of a results file given as ``PATH`` or ``NAME=PATH`` (each condition then
    read as ``NAME/condition``, so arms of two runs with one condition name can be told
    apart)."""
    name, _, path = ("", "", spec) if Path(spec).is_file() else spec.partition("=")
    if not path:
        name, path = "", spec
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    if name:
        rows = [{**row, "condition": f"{name}/{row['condition']}"} for row in rows]
    return rows


def comparison_table(comparisons: Iterable[ArmComparison]) -> str:
    """A markdown table of the comparisons."""
    lines = [
        "| first | second | tasks | first passed | second passed | first only | second only "
        "| difference [95% Newcombe] | McNemar p |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for c in comparisons:
        lines.append(
            f"| {c.first} | {c.second} | {c.tasks} | {c.first_passed} | {c.second_passed} "
            f"| {c.gained} | {c.lost} | {c.difference:+.3f} [{c.low:+.3f}, {c.high:+.3f}] "
            f"| {c.p_value:.3g} |"
        )
    return "\n".join(lines) + "\n"
