"""Paired comparison of a condition with a baseline on the same tasks.

Each task counts once: its first attempt (the temperature-0 pass@1 attempt) under both
conditions. The report gives the delta in pass rate with a bootstrap 95% confidence interval
over tasks, an exact McNemar test on the discordant pairs, and the flips themselves: tasks
solved by one condition and failed by the other, with the memories that were injected.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from math import comb
from typing import Any

import numpy as np

__all__ = [
    "Flip",
    "PairedComparison",
    "PairedMeans",
    "compare",
    "compare_means",
    "first_attempts",
    "flips",
    "mcnemar_exact",
]

TaskKey = tuple[str, str]  # (domain, task id)


@dataclass(frozen=True)
class PairedComparison:
    """A condition against the baseline on the tasks both ran (``domain`` "all" = pooled)."""

    condition: str
    baseline: str
    domain: str
    tasks: int
    base_rate: float
    rate: float
    delta: float
    ci_low: float
    ci_high: float
    gained: int  # failed by the baseline, solved with the condition
    lost: int  # solved by the baseline, failed with the condition
    p_value: float  # exact McNemar, two-sided


@dataclass(frozen=True)
class PairedMeans:
    """A condition against the baseline over every attempt: each task's difference in its mean
    pass rate (the first ``attempts`` attempts of both), and ``rho``, the correlation across
    tasks of the difference at attempt 0 with that at attempt 1 (None when it cannot be told)."""

    condition: str
    baseline: str
    domain: str
    tasks: int
    attempts: int
    delta: float
    ci_low: float
    ci_high: float
    rho: float | None


@dataclass(frozen=True)
class Flip:
    """A task the two conditions disagree on, and what the condition's run was given."""

    domain: str
    task_id: str
    direction: str  # "gained" or "lost"
    receipts: list[dict[str, Any]] = field(default_factory=list)


def first_attempts(rows: Iterable[dict[str, Any]]) -> dict[str, dict[TaskKey, dict[str, Any]]]:
    """condition -> (domain, task id) -> the row of attempt 0."""
    out: dict[str, dict[TaskKey, dict[str, Any]]] = {}
    for row in rows:
        if int(row.get("attempt", 0)) == 0:
            out.setdefault(row["condition"], {})[(row["domain"], row["task_id"])] = row
    return out


def _shared_tasks(
    ours: dict[TaskKey, Any], theirs: dict[TaskKey, Any], domain: str | None = None
) -> list[TaskKey]:
    """The tasks both conditions ran (of one domain, or all), in order."""
    return sorted(k for k in ours.keys() & theirs.keys() if domain is None or k[0] == domain)


def mcnemar_exact(gained: int, lost: int) -> float:
    """Two-sided exact McNemar p: the binomial test of the discordant pairs at one half."""
    n = gained + lost
    if n == 0:
        return 1.0
    tail = sum(comb(n, i) for i in range(min(gained, lost) + 1)) / 2**n
    return min(1.0, 2 * tail)


def _bootstrap(
    differences: np.ndarray, resamples: int, seed: int, level: float = 0.95
) -> tuple[float, float]:
    """The percentile bootstrap interval of the mean at ``level`` (0.95: a 95% interval)."""
    if len(differences) == 0:
        return (0.0, 0.0)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(differences), size=(resamples, len(differences)))
    means = differences[picks].mean(axis=1)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


def compare(
    rows: Iterable[dict[str, Any]],
    condition: str,
    baseline: str = "zero-shot",
    *,
    domain: str | None = None,
    resamples: int = 10_000,
    seed: int = 0,
) -> PairedComparison:
    """The condition against the baseline on the tasks both attempted (one domain or all)."""
    firsts = first_attempts(rows)
    ours, theirs = firsts.get(condition, {}), firsts.get(baseline, {})
    keys = _shared_tasks(ours, theirs, domain)
    with_memory = np.array([bool(ours[k]["passed"]) for k in keys], dtype=float)
    without = np.array([bool(theirs[k]["passed"]) for k in keys], dtype=float)
    differences = with_memory - without
    gained = int((differences > 0).sum())
    lost = int((differences < 0).sum())
    low, high = _bootstrap(differences, resamples, seed)
    n = len(keys)
    return PairedComparison(
        condition=condition,
        baseline=baseline,
        domain=domain or "all",
        tasks=n,
        base_rate=float(without.mean()) if n else 0.0,
        rate=float(with_memory.mean()) if n else 0.0,
        delta=float(differences.mean()) if n else 0.0,
        ci_low=low,
        ci_high=high,
        gained=gained,
        lost=lost,
        p_value=mcnemar_exact(gained, lost),
    )


def _outcomes(rows: Iterable[dict[str, Any]]) -> dict[str, dict[TaskKey, dict[int, bool]]]:
    """condition -> (domain, task id) -> attempt -> passed."""
    out: dict[str, dict[TaskKey, dict[int, bool]]] = {}
    for row in rows:
        task = out.setdefault(row["condition"], {}).setdefault((row["domain"], row["task_id"]), {})
        task[int(row.get("attempt", 0))] = bool(row["passed"])
    return out


def compare_means(
    rows: Iterable[dict[str, Any]],
    condition: str,
    baseline: str = "zero-shot",
    *,
    domain: str | None = None,
    resamples: int = 10_000,
    seed: int = 0,
    level: float = 0.95,
) -> PairedMeans:
    """The condition against the baseline on the tasks both attempted at least twice, each
    task's mean over the attempts both have (so a pre-registered k > 1 design is read as run);
    the interval at ``level`` (0.995 for an interim look that spends little of the 5%)."""
    outcomes = _outcomes(rows)
    ours, theirs = outcomes.get(condition, {}), outcomes.get(baseline, {})
    keys = _shared_tasks(ours, theirs, domain)
    shared = {k: sorted(ours[k].keys() & theirs[k].keys()) for k in keys}
    keys = [k for k in keys if len(shared[k]) >= 2]
    m = min((len(shared[k]) for k in keys), default=0)
    table = np.array(
        [[float(ours[k][a]) - float(theirs[k][a]) for a in shared[k][:m]] for k in keys]
    ).reshape(len(keys), m)
    means = table.mean(axis=1) if len(keys) else np.zeros(0)
    low, high = _bootstrap(means, resamples, seed, level)
    rho = None
    if len(keys) >= 3 and table[:, 0].std() > 0 and table[:, 1].std() > 0:
        rho = float(np.corrcoef(table[:, 0], table[:, 1])[0, 1])
    return PairedMeans(
        condition=condition,
        baseline=baseline,
        domain=domain or "all",
        tasks=len(keys),
        attempts=m,
        delta=float(means.mean()) if len(keys) else 0.0,
        ci_low=low,
        ci_high=high,
        rho=rho,
    )


def flips(
    rows: Iterable[dict[str, Any]], condition: str, baseline: str = "zero-shot"
) -> list[Flip]:
    """Tasks the condition lost (negative transfer) and gained, with its run's receipts."""
    firsts = first_attempts(rows)
    ours, theirs = firsts.get(condition, {}), firsts.get(baseline, {})
    out = []
    for key in _shared_tasks(ours, theirs):
        now, before = bool(ours[key]["passed"]), bool(theirs[key]["passed"])
        if now != before:
            direction = "gained" if now else "lost"
            out.append(Flip(*key, direction, list(ours[key].get("receipts") or [])))
    return out
