"""Served memory writer: send a finished run (task, trajectory, verified), get memories written.

MTL_MODEL abstracts the run; MTL_WRITE_TYPES (comma-separated, default "insight"); MTL_POOL and
MTL_COLLECTION choose the pool. The run's context carries domain and task_id.
"""

import os

from langgraph.graph import END, START, StateGraph

from langgraph_mtl import MemoryContext, MemoryState, create_memory_writer_node, open_pool

builder = StateGraph(MemoryState, context_schema=MemoryContext)
builder.add_node(
    create_memory_writer_node(
        lambda: open_pool(collection=os.environ.get("MTL_COLLECTION", "mtl_memories")),
        model=os.environ.get("MTL_MODEL", "local"),
        memory_types=os.environ.get("MTL_WRITE_TYPES", "insight").split(","),
    )
)
builder.add_edge(START, "write_memory")
builder.add_edge("write_memory", END)
graph = builder.compile()
