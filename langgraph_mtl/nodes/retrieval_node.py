"""The retrieval node: cross-domain memories for the task put into state, before planning."""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.language_models import BaseChatModel

from langgraph_mtl._keywords import one_config
from langgraph_mtl.memory.records import MemoryRecord
from langgraph_mtl.models import resolve_chat_model
from langgraph_mtl.nodes.base import (
    MemoryNode,
    PoolSource,
    failure_status,
    pool_getter,
    task_of,
)
from langgraph_mtl.pool.reports import ScoredMemory
from langgraph_mtl.pool.search import SearchScope, context_field
from langgraph_mtl.tracing import configure_tracing
from langgraph_mtl.transfer.retrieval import (
    RetrievalConfig,
    receipt,
    render_memory_block,
    retrieve_memories,
)

__all__ = ["RetrievalConfig", "create_memory_retrieval_node"]

log = logging.getLogger(__name__)


def create_memory_retrieval_node(
    pool: PoolSource,
    config: RetrievalConfig | None = None,
    *,
    model: str | BaseChatModel | None = None,
    task_key: str = "task",
    messages_key: str = "messages",
    output_key: str = "memory_prompt",
    receipts_key: str = "memory_receipts",
    status_key: str = "memory_status",
    plan_key: str | None = None,
    query_key: str | None = "memory_query",
    name: str = "retrieve_memories",
    **settings: Any,
) -> MemoryNode:
    """A node that puts cross-domain memories for the task into state, before planning.

    ``config`` says what to fetch (:class:`~langgraph_mtl.transfer.retrieval.RetrievalConfig`;
    or its fields as keywords: ``k=5, memory_types="insight", min_similarity=0.2``). The run
    context (``MemoryContext``) says who is asking and may override ``k``, ``memory_types`` and
    ``min_similarity``: memories of ``context.domain`` are left out unless
    ``context.include_own_domain`` (leave-one-domain-out), and those of ``context.task_id``
    always are. The search is the pool's one search, the same as the memory tool's, the
    retriever's and the store's.

    The node returns the rendered block (``output_key``), one receipt per memory
    (``receipts_key``) and a status (``status_key``): ``"ok"``, ``"disabled"``,
    ``"no task"``, ``"unavailable: <reason>"`` (an outage: a later run may succeed) or
    ``"misconfigured: <what to fix>"`` (a wrong run context, location or embedder). It never
    raises on a pool or model failure: the run goes on without memory. ``pool`` may be a
    location (opened on first use, retried while it fails). With ``plan_key``, a plan already
    in state is the query for plan-based memory types (no second planning call).
    ``state[query_key]``, when there, is searched with instead of the task: the problem's own
    content (a function's docstring, a failing test's output) rather than an instruction
    template that many tasks share. ``context.given_memories`` hands the run its memories
    (curated ones, a placebo): they are rendered as found ones would be, with no search.
    """
    config = one_config(config, settings, RetrievalConfig)
    configure_tracing()
    get_pool = pool_getter(pool)
    chat = resolve_chat_model(model) if model is not None else None

    def retrieve(state: dict[str, Any], runtime: Any) -> dict[str, Any]:
        empty = {output_key: "", receipts_key: []}
        context = getattr(runtime, "context", None)
        if not context_field(context, "retrieve", True):
            return {**empty, status_key: "disabled"}
        task = task_of(state, task_key, messages_key)
        if not task.strip():
            return {**empty, status_key: "no task"}
        try:
            run_config, scope = config.for_run(context), SearchScope.of(context)
            given = _given(context_field(context, "given_memories"))
        except ValueError as exc:
            log.error("memory retrieval skipped, the run context is wrong: %s", exc)
            return {**empty, status_key: f"misconfigured: {exc}"}
        plan = (state.get(plan_key) or None) if plan_key else None
        query = state.get(query_key) if query_key else None
        try:
            if given is not None:  # handed to the run: rendered as found ones would be
                hits = given
            else:
                hits = retrieve_memories(
                    get_pool(),
                    query if isinstance(query, str) and query.strip() else task,
                    run_config,
                    scope=scope,
                    model=chat,
                    plan=plan,
                )
        except Exception as exc:
            log.warning("memory retrieval failed, continuing without memory: %s", exc)
            return {**empty, status_key: failure_status(exc)}
        return {
            output_key: render_memory_block(hits, max_tokens=run_config.max_tokens),
            receipts_key: [receipt(h) for h in hits],
            status_key: "ok",
        }

    return MemoryNode(retrieve, name)


def _given(items: Any) -> list[ScoredMemory] | None:
    """The run's given memories as scored ones (similarity 0 where none is given)."""
    if items is None:
        return None
    out = []
    for item in items:
        if isinstance(item, ScoredMemory):
            out.append(item)
        elif isinstance(item, MemoryRecord):
            out.append(ScoredMemory(item, 0.0))
        else:
            raise ValueError(
                f"context.given_memories: expected MemoryRecord or ScoredMemory items, got "
                f"{type(item).__name__}"
            )
    return out
