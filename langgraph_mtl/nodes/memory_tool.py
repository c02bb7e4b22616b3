"""A tool an agent can call mid-run to search the shared pool, leave-one-domain-out."""

from __future__ import annotations

import logging
from typing import Any

from langchain.tools import ToolRuntime
from langchain_core.tools import BaseTool, tool

from langgraph_mtl._keywords import one_config
from langgraph_mtl.nodes.base import PoolSource, pool_getter
from langgraph_mtl.pool.search import SearchConfig, SearchScope
from langgraph_mtl.tracing import configure_tracing
from langgraph_mtl.transfer.retrieval import receipt, render_memory_block

__all__ = ["create_search_memory_tool"]

log = logging.getLogger(__name__)


def create_search_memory_tool(
    pool: PoolSource,
    config: SearchConfig | None = None,
    *,
    name: str = "search_memory",
    **settings: Any,
) -> BaseTool:
    """A tool that searches memories from other coding domains with the model's query.

    ``config`` (:class:`~langgraph_mtl.pool.search.SearchConfig`, or its fields as keywords:
    ``k``, ``memory_types``, ``min_similarity``, ``scorers``) says what to fetch; the run's
    context (``MemoryContext`` or any object with its fields) decides the scope, as for the
    retrieval node: memories of ``context.domain`` and of ``context.task_id`` are left out
    unless ``context.include_own_domain``, and it may override ``k``, ``memory_types`` and
    ``min_similarity``. The tool's reply is the rendered memory block; its artifact is the
    receipts (id, type, domain, similarity). A pool failure is a reply, not an error.
    """
    config = one_config(config, settings, SearchConfig)
    configure_tracing()
    get_pool = pool_getter(pool)

    @tool(name, response_format="content_and_artifact")
    def search_memory(
        query: str, runtime: ToolRuntime[Any, Any]
    ) -> tuple[str, list[dict[str, Any]]]:
        """Search lessons learned on other coding tasks: advice, workflows, pitfalls. Use a
        short description of what you are stuck on."""
        context = getattr(runtime, "context", None)
        try:
            hits = get_pool().search(query, config.for_run(context), scope=SearchScope.of(context))
        except Exception as exc:
            log.warning("memory search unavailable: %s", exc)
            return f"memory search unavailable ({type(exc).__name__}); go on without it", []
        if not hits:
            return "no memories matched", []
        return render_memory_block(hits), [dict(receipt(h)) for h in hits]

    return search_memory
