"""What the memory nodes and the memory tool are made of: the run context they read, how they
reach the pool, and the node type with a sync and a native async form."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypedDict

from langchain_core.runnables import RunnableLambda
from langgraph.runtime import get_runtime

from langgraph_mtl.memory.enums import parse_memory_types
from langgraph_mtl.memory.records import validate_domain
from langgraph_mtl.memory.trajectory import Step, task_from_messages
from langgraph_mtl.pool.location import PoolLocationError, parse_location
from langgraph_mtl.pool.memory_pool import EmbedderMismatchError, MemoryPool
from langgraph_mtl.pool.opening import open_pool
from langgraph_mtl.pool.search import checked_k, checked_min_similarity, context_field
from langgraph_mtl.transfer.retrieval import Receipt

__all__ = [
    "MemoryContext",
    "MemoryNode",
    "MemoryState",
    "PoolSource",
    "context_value",
    "failure_status",
    "listed",
    "pool_getter",
    "task_of",
]

PoolSource = MemoryPool | str | Callable[[], MemoryPool]


@dataclass
class MemoryContext:
    """Run-scoped memory settings, passed as ``graph.invoke(..., context=MemoryContext(...))``.

    Any context object with these attribute names works; missing ones take the defaults.
    """

    domain: str | None = None
    task_id: str | None = None
    memory_types: tuple[str, ...] | None = None
    k: int | None = None
    retrieve: bool = True
    write: bool = True
    include_own_domain: bool = False
    source_domains: tuple[str, ...] | None = None
    min_similarity: float | None = None
    # memories handed to this run instead of searched for (curated ones, a placebo, an oracle):
    # MemoryRecord or ScoredMemory objects
    given_memories: tuple[Any, ...] | None = None
    # tasks whose memories this run must never see, besides its own: the same problem posed in
    # another domain (its twin), whose memory would be this task's answer
    exclude_task_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """A bad setting is an error here, where it was made, not later inside a run."""
        if self.domain is not None:
            self.domain = validate_domain(self.domain, "context.domain")
        if self.task_id is not None and not isinstance(self.task_id, str):
            raise ValueError(f"context.task_id: expected text, got {self.task_id!r:.60}")
        if self.memory_types is not None:
            kinds = parse_memory_types(self.memory_types, "context.memory_types")
            self.memory_types = tuple(kind.value for kind in kinds)
        if self.k is not None:
            self.k = checked_k(self.k, "context.k")
        self.min_similarity = checked_min_similarity(self.min_similarity, "context.min_similarity")
        named_tasks = self.exclude_task_ids
        if isinstance(named_tasks, str) or not all(isinstance(t, str) for t in named_tasks or ()):
            raise ValueError(
                f"context.exclude_task_ids: expected task ids, like ('HumanEval/3',), got "
                f"{named_tasks!r:.60}"
            )
        self.exclude_task_ids = tuple(named_tasks or ())
        if self.source_domains is not None:
            named = self.source_domains
            if not isinstance(named, str | Iterable):
                raise ValueError(f"context.source_domains: expected domain names, got {named!r}")
            self.source_domains = tuple(
                validate_domain(name, "context.source_domains")
                for name in ((named,) if isinstance(named, str) else named)
            )


class MemoryState(TypedDict, total=False):
    """State keys the memory nodes read and write (the default key names)."""

    task: str
    memory_query: str  # what retrieval searches with, when not the task itself
    trajectory: list[Step]
    verified: bool | None
    memory_prompt: str
    memory_receipts: list[Receipt]
    memory_status: str
    memory_written: list[str]
    memory_write_status: str


def context_value(runtime: Any, name: str, default: Any) -> Any:
    """A run-context field (attribute or dict key) of a runtime, or ``default``."""
    return context_field(getattr(runtime, "context", None), name, default)


# errors that a retry will not fix: reported as "misconfigured", not as an outage
_CONFIG_ERRORS = (PoolLocationError, EmbedderMismatchError)


def failure_status(exc: Exception) -> str:
    """A node's status for a failure of the memory layer: a setting to fix, or an outage."""
    kind = "misconfigured" if isinstance(exc, _CONFIG_ERRORS) else "unavailable"
    return f"{kind}: {type(exc).__name__}: {str(exc)[:200]}"


def task_of(state: dict[str, Any], task_key: str, messages_key: str) -> str:
    """The run's task: ``state[task_key]``, else the first human message."""
    task = state.get(task_key)
    if isinstance(task, str) and task.strip():
        return task
    return task_from_messages(listed(state, messages_key))


def listed(state: dict[str, Any], key: str) -> list[Any]:
    """``state[key]`` when it is a list (the messages, the receipts), else none (a run's state
    written by hand may hold anything there)."""
    value = state.get(key)
    return list(value) if isinstance(value, list | tuple) else []


def pool_getter(pool: PoolSource) -> Callable[[], MemoryPool]:
    """How a node reaches its pool: as given, or opened on first use from a location or a
    callable (retried on the next run while it fails, so an outage at start-up is survived)."""
    if isinstance(pool, MemoryPool):
        ready = pool
        return lambda: ready
    opener: Callable[[], MemoryPool]
    if isinstance(pool, str):
        parse_location(pool)  # a malformed location is a build-time error
        opener = partial(open_pool, pool)
    elif callable(pool):
        opener = pool
    else:
        raise ValueError(
            f"pool: expected a MemoryPool, a location or a callable returning a pool, got {pool!r}"
        )
    cache: list[MemoryPool] = []

    def get() -> MemoryPool:
        if not cache:
            cache.append(opener())
        return cache[0]

    return get


class MemoryNode(RunnableLambda[Any, dict[str, Any]]):
    """A memory node with a sync and a native async form (``invoke`` / ``ainvoke``; the async
    form runs the blocking pool and embedder work in a worker thread, off the event loop).

    Add it with ``builder.add_node(node)`` (its name is the node's name); call it directly as
    ``node(state, runtime)``. Inside a graph the runtime (context, store) comes from LangGraph.
    """

    def __init__(self, body: Callable[[dict[str, Any], Any], dict[str, Any]], name: str):
        def run(state: dict[str, Any]) -> dict[str, Any]:
            return body(state, get_runtime())

        async def arun(state: dict[str, Any]) -> dict[str, Any]:
            runtime = get_runtime()  # read on the loop, where LangGraph set it
            return await asyncio.to_thread(body, state, runtime)

        super().__init__(run, afunc=arun, name=name)
        self._body = body
        self.__name__ = name

    def __call__(self, state: dict[str, Any], runtime: Any = None) -> dict[str, Any]:
        """Run the node outside a graph (``runtime`` supplies ``context``)."""
        return self._body(state, runtime)
