"""The unbiased pass@k estimator (Chen et al., 2021): 1 - C(n - c, k) / C(n, k)."""

from __future__ import annotations

from math import comb

__all__ = ["pass_at_k"]


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of ``k`` samples out of ``n`` (``c`` correct) passes."""
    if not 0 <= c <= n:
        raise ValueError(f"c must be in [0, n], got n={n}, c={c}")
    if not 1 <= k <= n:
        raise ValueError(f"k must be in [1, n], got n={n}, k={k}")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)
