"""langgraph-mtl: Memory Transfer Learning for LangGraph coding agents.

One shared memory pool built from many coding domains; a node that retrieves cross-domain
memories before planning and a node that writes the finished run back as a memory.

Importing the package is cheap and has no side effects: the names below load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from langgraph_mtl._lazy import lazy_exports

if TYPE_CHECKING:
    from langgraph_mtl.agent import AgentContext, create_coding_agent
    from langgraph_mtl.memory.records import MemoryRecord, MemoryType, Outcome
    from langgraph_mtl.nodes.memory_nodes import (
        MemoryContext,
        MemoryState,
        create_memory_retrieval_node,
        create_memory_writer_node,
    )
    from langgraph_mtl.pool.memory_pool import MemoryPool
    from langgraph_mtl.pool.opening import open_pool
    from langgraph_mtl.transfer.retrieval import retrieve_memories

__all__ = [
    "AgentContext",
    "MemoryContext",
    "MemoryPool",
    "MemoryRecord",
    "MemoryState",
    "MemoryType",
    "Outcome",
    "create_coding_agent",
    "create_memory_retrieval_node",
    "create_memory_writer_node",
    "open_pool",
    "retrieve_memories",
]

_HOME = {
    "AgentContext": "agent",
    "create_coding_agent": "agent",
    "MemoryRecord": "memory.records",
    "MemoryType": "memory.records",
    "Outcome": "memory.records",
    "MemoryContext": "nodes.memory_nodes",
    "MemoryState": "nodes.memory_nodes",
    "create_memory_retrieval_node": "nodes.memory_nodes",
    "create_memory_writer_node": "nodes.memory_nodes",
    "MemoryPool": "pool.memory_pool",
    "open_pool": "pool.opening",
    "retrieve_memories": "transfer.retrieval",
}


__getattr__, __dir__ = lazy_exports(__name__, _HOME, globals())
