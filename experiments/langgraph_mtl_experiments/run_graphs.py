"""The compiled agents a run's attempts use: a condition's (its retrieval over its pool,
never writing) and phase 1's (no memory read, every run written)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_mtl.agent import RetrievalConfig, WriterConfig
from langgraph_mtl.pool.memory_pool import MemoryPool
from langgraph_mtl_experiments.agents import build_agent, compiled
from langgraph_mtl_experiments.attempts import AgentSettings
from langgraph_mtl_experiments.conditions import Condition
from langgraph_mtl_experiments.pools import condition_scorers

__all__ = ["condition_graph", "memories_graph"]


def condition_graph(
    condition: Condition,
    *,
    model: BaseChatModel,
    pool: MemoryPool,
    k: int,
    agent: AgentSettings,
    scorers: Sequence[Any] = (),
    interrupt: bool = False,
) -> Any:
    """The compiled agent a condition's attempts run: its retrieval settings over its pool
    (``pool`` cut to the condition's share when it asks), evaluation never writing;
    ``interrupt`` pauses it once its memories are chosen (same-prompt reuse)."""
    if not condition.in_writes:
        agent = dataclasses.replace(agent, focused_memories=False)
    retrieval = RetrievalConfig(
        memory_types=condition.memory_types or None,
        k=k,
        strategy=condition.strategy,
        rerank=condition.rerank,
        scorers=(*condition_scorers(condition), *scorers),
    )
    builder = build_agent(model, pool, retrieval, WriterConfig(memory_types="trajectory"), agent)
    if interrupt and "retrieve_memories" in getattr(builder, "nodes", {}):
        return compiled(
            builder, checkpointer=InMemorySaver(), interrupt_after=["retrieve_memories"]
        )
    return compiled(builder)


def memories_graph(
    model: BaseChatModel, pool: MemoryPool, memory_types: Iterable[str], agent: AgentSettings
) -> Any:
    """The compiled agent phase 1 runs: no memory read, every run written as ``memory_types``."""
    retrieval = RetrievalConfig(memory_types=None)
    return compiled(
        build_agent(model, pool, retrieval, WriterConfig(memory_types=tuple(memory_types)), agent)
    )
