"""Whole-file rewrites that lose a definition: a small model asked to fix one function often
renames it (``solution_pairs_sum_to_zero``) or answers with a helper alone, and every caller
and test of the old name breaks. Such a rewrite is refused before it is written."""

from __future__ import annotations

import re

__all__ = ["dropped_definitions"]

# top-level definitions (column 0): Python, Rust, JavaScript/TypeScript, Go, shell functions
_TOP_LEVEL = re.compile(
    r"^(?:pub(?:\([^)\n]*\))?\s+)?(?:export\s+)?(?:async\s+)?(?:def|class|fn|function|func)\s+"
    r"([A-Za-z_]\w*)",
    re.MULTILINE,
)


def _names(text: str) -> list[str]:
    return list(dict.fromkeys(_TOP_LEVEL.findall(text)))


def dropped_definitions(old: str, new: str) -> list[str]:
    """The top-level functions and classes ``old`` defines and ``new`` does not, in order."""
    kept = set(_names(new))
    return [name for name in _names(old) if name not in kept]
