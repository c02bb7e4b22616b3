"""What plugs into a LangGraph graph: the retrieval and writer nodes, their outbox and human
review, the search-memory tool, and both nodes as ``create_agent`` middleware.

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
    from langgraph_mtl.nodes.middleware import MemoryTransferMiddleware

__all__ = [
    "MemoryContext",
    "MemoryTransferMiddleware",
    "MemoryState",
    "create_memory_retrieval_node",
    "create_memory_writer_node",
]

_HOME = {
    "MemoryContext": "base",
    "MemoryState": "base",
    "MemoryTransferMiddleware": "middleware",
    "create_memory_retrieval_node": "memory_nodes",
    "create_memory_writer_node": "memory_nodes",
}


__getattr__, __dir__ = lazy_exports(__name__, _HOME, globals())
