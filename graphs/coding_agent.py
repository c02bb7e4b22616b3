"""Served coding agent with memory transfer, configured from environment variables.

MTL_MODEL (default "local": a running `mtl serve`, MTL_LOCAL_BASE_URL), MTL_POOL (pool dir or
Chroma server URL), MTL_COLLECTION, MTL_STEP_LIMIT, MTL_SANDBOX ("auto", "bwrap", "none").
Run-scoped settings (domain, task_id, workspace, verify_command) come in the run's context.
"""

from langgraph_mtl import open_pool
from langgraph_mtl.agent import Limits, SandboxConfig, create_coding_agent
from langgraph_mtl.environment import from_environment
from langgraph_mtl.models import resolve_chat_model
from langgraph_mtl.pool.location import check_collection_name, default_pool_location, parse_location


def _limits(steps: str) -> Limits:
    if not steps.strip().isdigit():
        raise ValueError("expected a whole number of steps")
    return Limits(steps=int(steps))


# checked now, opened on first use
from_environment("MTL_POOL", default_pool_location(), parse_location)
COLLECTION = from_environment("MTL_COLLECTION", "mtl_memories", check_collection_name)

graph = create_coding_agent(
    from_environment("MTL_MODEL", "local", resolve_chat_model),
    pool=lambda: open_pool(collection=COLLECTION),
    sandbox=from_environment("MTL_SANDBOX", "auto", lambda mode: SandboxConfig(mode=mode)),  # type: ignore[arg-type]
    limits=from_environment("MTL_STEP_LIMIT", "10", _limits),
).compile()
