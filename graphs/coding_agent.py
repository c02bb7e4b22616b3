"""Served coding agent with memory transfer, configured from environment variables.

MTL_MODEL (default "local": a running `mtl serve`, MTL_LOCAL_BASE_URL), MTL_POOL (pool dir or
Chroma server URL), MTL_COLLECTION, MTL_STEP_LIMIT, MTL_SANDBOX ("auto", "bwrap", "none").
Run-scoped settings (domain, task_id, workspace, verify_command) come in the run's context.
"""

import os

from langgraph_mtl import open_pool
from langgraph_mtl.agent import Limits, SandboxConfig, create_coding_agent


def _step_limit() -> int:
    value = os.environ.get("MTL_STEP_LIMIT", "10")
    try:
        return int(value)
    except ValueError:
        raise ValueError(
            f"MTL_STEP_LIMIT: expected a whole number of steps, got {value!r}"
        ) from None


graph = create_coding_agent(
    os.environ.get("MTL_MODEL", "local"),
    pool=lambda: open_pool(collection=os.environ.get("MTL_COLLECTION", "mtl_memories")),
    sandbox=SandboxConfig(mode=os.environ.get("MTL_SANDBOX", "auto")),  # type: ignore[arg-type]
    limits=Limits(steps=_step_limit()),
).compile()
