"""Memories as data: the four memory types, outcomes, records and run trajectories.

The names below load on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from langgraph_mtl._lazy import lazy_exports

if TYPE_CHECKING:
    from langgraph_mtl.memory.enums import MemoryType, Outcome
    from langgraph_mtl.memory.records import MemoryRecord

__all__ = [
    "MemoryRecord",
    "MemoryType",
    "Outcome",
]

_HOME = {
    "MemoryRecord": "records",
    "MemoryType": "enums",
    "Outcome": "enums",
}


__getattr__, __dir__ = lazy_exports(__name__, _HOME, globals())
