"""The two drop-in LangGraph nodes: retrieve memories before planning, write one after the run.

Example::

    from langgraph.graph import StateGraph, START, END
    from langgraph_mtl import (MemoryContext, MemoryState, open_pool,
                               create_memory_retrieval_node, create_memory_writer_node)

    class State(MemoryState):
        answer: str

    pool = open_pool()
    builder = StateGraph(State, context_schema=MemoryContext)
    builder.add_node(create_memory_retrieval_node(pool, k=3))
    builder.add_node("solve", solve)                      # reads state["memory_prompt"]
    builder.add_node(create_memory_writer_node(pool, model=model, memory_types="insight"))
    builder.add_edge(START, "retrieve_memories")
    builder.add_edge("retrieve_memories", "solve")
    builder.add_edge("solve", "write_memory")
    builder.add_edge("write_memory", END)
    graph = builder.compile()
    graph.invoke({"task": "..."}, context=MemoryContext(domain="python", task_id="t1"))
"""

from __future__ import annotations

from langgraph_mtl.nodes.base import MemoryContext, MemoryNode, MemoryState
from langgraph_mtl.nodes.retrieval_node import RetrievalConfig, create_memory_retrieval_node
from langgraph_mtl.nodes.writer_node import WriterConfig, create_memory_writer_node

__all__ = [
    "MemoryContext",
    "MemoryNode",
    "MemoryState",
    "RetrievalConfig",
    "WriterConfig",
    "create_memory_retrieval_node",
    "create_memory_writer_node",
]
