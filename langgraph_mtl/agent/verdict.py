"""What a verifier says about a finished run: passed or not, its report, and any tampering."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Verdict"]


@dataclass(frozen=True)
class Verdict:
    """``passed`` only when every check ran and passed; ``tampered`` names what the run
    changed that a verifier reads (a tampered run never passes)."""

    passed: bool
    report: str
    tampered: tuple[str, ...] = ()


WorkspaceVerifier = Callable[[str], Verdict]
"""Checks a finished workspace (its path) and returns the verdict."""
