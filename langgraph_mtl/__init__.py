"""langgraph-mtl: Memory Transfer Learning for LangGraph coding agents.

One shared memory pool built from many coding domains; a node that retrieves cross-domain
memories before planning and a node that writes the finished run back as a memory.
"""

from langgraph_mtl.abstraction import AbstractionError, FinishedRun, abstract_run
from langgraph_mtl.agent import AgentContext, create_coding_agent
from langgraph_mtl.embeddings import MiniLMEmbeddings, resolve_embeddings
from langgraph_mtl.memory_types import (
    InsightMemory,
    MemoryRecord,
    MemoryType,
    Outcome,
    SummaryMemory,
    TrajectoryMemory,
    WorkflowMemory,
)
from langgraph_mtl.nodes import (
    MemoryContext,
    MemoryState,
    create_memory_retrieval_node,
    create_memory_writer_node,
)
from langgraph_mtl.outbox import Outbox
from langgraph_mtl.pool import EmbedderMismatchError, MemoryPool, ScoredMemory, open_pool
from langgraph_mtl.retrieval import QueryStrategy, render_memory_block, retrieve_memories
from langgraph_mtl.tracing import configure_tracing

__all__ = [
    "AbstractionError",
    "AgentContext",
    "EmbedderMismatchError",
    "FinishedRun",
    "InsightMemory",
    "MemoryContext",
    "MemoryPool",
    "MemoryRecord",
    "MemoryState",
    "MemoryType",
    "MiniLMEmbeddings",
    "Outbox",
    "Outcome",
    "QueryStrategy",
    "ScoredMemory",
    "SummaryMemory",
    "TrajectoryMemory",
    "WorkflowMemory",
    "abstract_run",
    "configure_tracing",
    "create_coding_agent",
    "create_memory_retrieval_node",
    "create_memory_writer_node",
    "open_pool",
    "render_memory_block",
    "resolve_embeddings",
    "retrieve_memories",
]

configure_tracing()  # a keyless tracing request becomes a silent no-op
