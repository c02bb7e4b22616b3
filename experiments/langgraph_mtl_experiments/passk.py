"""Pass rates: the unbiased pass@k estimator (Chen et al., 2021), 1 - C(n - c, k) / C(n, k),
and the Wilson score interval of a pass@1 rate."""

from __future__ import annotations

from math import comb, sqrt

__all__ = ["pass_at_k", "wilson_interval"]


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of ``k`` samples out of ``n`` (``c`` correct) passes."""
    if not 0 <= c <= n:
        raise ValueError(f"c must be in [0, n], got n={n}, c={c}")
    if not 1 <= k <= n:
        raise ValueError(f"k must be in [1, n], got n={n}, k={k}")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def wilson_interval(passed: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``passed`` of ``n`` (95% for the default ``z``); it stays
    inside [0, 1] and is not degenerate at 0 or n passes, unlike the normal approximation."""
    if not 0 <= passed <= n or n < 1:
        raise ValueError(f"need 0 <= passed <= n and n >= 1, got passed={passed}, n={n}")
    rate = passed / n
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * sqrt(rate * (1 - rate) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)
