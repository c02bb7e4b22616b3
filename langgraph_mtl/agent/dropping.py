"""Changes that lose a definition: a small model asked to fix one function often renames it
(``solution_pairs_sum_to_zero``), answers with a helper alone, or leaves out a module's
constant (``no_default = ...``), and every user of the old name breaks. Such a change is
refused before it is written."""

from __future__ import annotations

import re

__all__: list[str] = []  # used within the agent package only

# top-level definitions (column 0): Python, Rust, JavaScript/TypeScript, Go, shell functions
_TOP_LEVEL = re.compile(
    r"^(?:pub(?:\([^)\n]*\))?\s+)?(?:export\s+)?(?:async\s+)?(?:def|class|fn|function|func)\s+"
    r"([A-Za-z_]\w*)",
    re.MULTILINE,
)
# top-level names assigned (column 0): Python (annotated too) and shell variables
_ASSIGNED = re.compile(r"^([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=)", re.MULTILINE)


def _names(text: str) -> list[str]:
    found = sorted(
        (match.start(), match.group(1))
        for pattern in (_TOP_LEVEL, _ASSIGNED)
        for match in pattern.finditer(text)
    )
    return list(dict.fromkeys(name for _, name in found))


def dropped_definitions(old: str, new: str) -> list[str]:
    """The top-level functions, classes and assigned names ``old`` defines and ``new`` does
    not, in order."""
    kept = set(_names(new))
    return [name for name in _names(old) if name not in kept]
