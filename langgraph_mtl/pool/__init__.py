"""The shared memory pool on Chroma: storage, codec, locking, import/export, provenance,
consolidation, feedback and the LangGraph store and retriever views.

The names below load on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from langgraph_mtl._lazy import lazy_exports

if TYPE_CHECKING:
    from langgraph_mtl.pool.memory_pool import MemoryPool
    from langgraph_mtl.pool.opening import open_pool

__all__ = [
    "MemoryPool",
    "open_pool",
]

_HOME = {
    "MemoryPool": "memory_pool",
    "open_pool": "opening",
}


__getattr__, __dir__ = lazy_exports(__name__, _HOME, globals())
