"""A tool an agent can call mid-run to search the shared pool, leave-one-domain-out."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from langchain.tools import ToolRuntime
from langchain_core.tools import BaseTool, tool

from langgraph_mtl.memory.enums import MemoryType, parse_memory_types
from langgraph_mtl.nodes.base import PoolSource, context_value, pool_getter
from langgraph_mtl.transfer.retrieval import (
    checked_k,
    checked_min_similarity,
    receipt,
    render_memory_block,
    retrieve_memories,
)

__all__ = ["create_search_memory_tool"]

log = logging.getLogger(__name__)


def create_search_memory_tool(
    pool: PoolSource,
    *,
    k: int = 3,
    memory_types: Iterable[MemoryType | str] | None = None,
    min_similarity: float | None = None,
    name: str = "search_memory",
) -> BaseTool:
    """A tool that searches memories from other coding domains with the model's query.

    The run's context (``MemoryContext`` or any object with its fields) decides the scope:
    memories of ``context.domain`` and of ``context.task_id`` are left out unless
    ``context.include_own_domain``. The tool's reply is the rendered memory block; its artifact
    is the receipts (id, type, domain, similarity). A pool failure is a reply, not an error.
    """
    checked_k(k)
    checked_min_similarity(min_similarity)
    get_pool = pool_getter(pool)
    kinds = list(parse_memory_types(memory_types, "memory_types")) or None

    @tool(name, response_format="content_and_artifact")
    def search_memory(
        query: str, runtime: ToolRuntime[Any, Any]
    ) -> tuple[str, list[dict[str, Any]]]:
        """Search lessons learned on other coding tasks: advice, workflows, pitfalls. Use a
        short description of what you are stuck on."""
        task_id = context_value(runtime, "task_id", None)
        try:
            hits = retrieve_memories(
                get_pool(),
                query,
                domain=context_value(runtime, "domain", None),
                k=k,
                memory_types=kinds,
                include_own_domain=bool(context_value(runtime, "include_own_domain", False)),
                exclude_task_ids=[task_id] if task_id else None,
                min_similarity=min_similarity,
            )
        except Exception as exc:
            log.warning("memory search unavailable: %s", exc)
            return f"memory search unavailable ({type(exc).__name__}); go on without it", []
        if not hits:
            return "no memories matched", []
        return render_memory_block(hits), [dict(receipt(h)) for h in hits]

    return search_memory
