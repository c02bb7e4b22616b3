"""Served memory writer: send a finished run (task, trajectory, verified), get memories written.

MTL_MODEL abstracts the run; MTL_WRITE_TYPES (comma-separated, default "insight"); MTL_POOL and
MTL_COLLECTION choose the pool. The run's context carries domain and task_id.
"""

from langgraph.graph import END, START, StateGraph

from langgraph_mtl import MemoryContext, MemoryState, create_memory_writer_node, open_pool
from langgraph_mtl.agent import WriterConfig
from langgraph_mtl.environment import from_environment
from langgraph_mtl.memory.enums import MemoryType, parse_memory_types
from langgraph_mtl.models import resolve_chat_model
from langgraph_mtl.pool.location import check_collection_name, default_pool_location, parse_location


def _memory_types(names: str) -> tuple[MemoryType, ...]:
    return parse_memory_types([name.strip() for name in names.split(",")], "memory types")


# checked now, opened on first use
from_environment("MTL_POOL", default_pool_location(), parse_location)
COLLECTION = from_environment("MTL_COLLECTION", "mtl_memories", check_collection_name)

builder = StateGraph(MemoryState, context_schema=MemoryContext)
builder.add_node(
    create_memory_writer_node(
        lambda: open_pool(collection=COLLECTION),
        WriterConfig(
            model=from_environment("MTL_MODEL", "local", resolve_chat_model),
            memory_types=from_environment("MTL_WRITE_TYPES", "insight", _memory_types),
        ),
    )
)
builder.add_edge(START, "write_memory")
builder.add_edge("write_memory", END)
graph = builder.compile()
