"""What plugs into a LangGraph graph: the retrieval and writer nodes, their outbox and human
review, and the search-memory tool.

The names below load on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from langgraph_mtl._lazy import lazy_exports

if TYPE_CHECKING:
    from langgraph_mtl.nodes.base import MemoryContext, MemoryState
    from langgraph_mtl.nodes.memory_nodes import (
        create_memory_retrieval_node,
        create_memory_writer_node,
    )

__all__ = [
    "MemoryContext",
    "MemoryState",
    "create_memory_retrieval_node",
    "create_memory_writer_node",
]

_HOME = {
    "MemoryContext": "base",
    "MemoryState": "base",
    "create_memory_retrieval_node": "memory_nodes",
    "create_memory_writer_node": "memory_nodes",
}


__getattr__, __dir__ = lazy_exports(__name__, _HOME, globals())
