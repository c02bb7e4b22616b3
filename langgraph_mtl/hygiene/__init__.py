"""Hygiene below everything that stores: secret redaction, injection screening, sanitizing
records before they are written.

The names below load on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from langgraph_mtl._lazy import lazy_exports

if TYPE_CHECKING:
    from langgraph_mtl.hygiene.redaction import redact
    from langgraph_mtl.hygiene.sanitize import sanitize
    from langgraph_mtl.hygiene.screening import screen

__all__ = [
    "redact",
    "sanitize",
    "screen",
]

_HOME = {
    "redact": "redaction",
    "sanitize": "sanitize",
    "screen": "screening",
}


__getattr__, __dir__ = lazy_exports(__name__, _HOME, globals())
