"""The pool through LangGraph's and LangChain's own memory interfaces.

:class:`MemoryStore` is a ``BaseStore``: namespaces are ``("memories", domain, memory_type)``,
keys are memory ids, values are the memory's fields. ``search`` with a query is the pool's one
search (:mod:`.search`): inside a graph run, the run's context decides the scope as it does for
the retrieval node (its domain left out unless it includes its own, its task always), then the
namespace prefix and a filter on value fields (equality, ``$eq``, ``$ne``, ``$in``, ``$nin``)
narrow it, and the store's settings gate and re-rank it. Writes go through the pool: redacted,
screened, under their own key. :class:`MemoryRetriever` is a LangChain retriever over the same
search.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langgraph.runtime import get_runtime
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)
from pydantic import ConfigDict, InstanceOf, field_validator

from langgraph_mtl.hygiene.sanitize import secrets_in_id
from langgraph_mtl.memory.fence import fence
from langgraph_mtl.memory.records import MemoryRecord, MemoryType
from langgraph_mtl.pool.memory_pool import MemoryPool
from langgraph_mtl.pool.reports import ScoredMemory
from langgraph_mtl.pool.search import SearchConfig, SearchScope, context_field

__all__ = ["ROOT", "MemoryRetriever", "MemoryStore", "run_context"]

ROOT = "memories"
_FILTERABLE = {"domain", "memory_type", "outcome", "task_id", "agent_model", "judged_by"}


def _namespace(record: MemoryRecord) -> tuple[str, ...]:
    return (ROOT, record.domain, record.memory_type.value)


def _time(record: MemoryRecord) -> datetime:
    try:
        return datetime.fromisoformat(record.created_at)
    except ValueError:
        return datetime.now(UTC)


def _value(record: MemoryRecord) -> dict[str, Any]:
    value = record.model_dump(mode="json")
    value.pop("id")
    return value


def _item(record: MemoryRecord, score: float | None = None) -> SearchItem:
    """A search result; its value also holds ``fenced``, the memory as prompt text, between
    delimiters it cannot forge (:mod:`langgraph_mtl.memory.fence`)."""
    when = _time(record)
    attributes = {"id": record.id, "type": record.memory_type.value, "domain": record.domain}
    value = {**_value(record), "fenced": fence([(attributes, record.content)])}
    return SearchItem(_namespace(record), record.id, value, when, when, score=score)


def _scope(prefix: tuple[str, ...]) -> tuple[tuple[MemoryType, ...] | None, str | None]:
    """The memory types and the domain a namespace prefix names: () / ("memories",) /
    (.., domain) / (.., domain, type)."""
    if prefix and prefix[0] != ROOT:
        raise InvalidNamespaceError(f"namespaces start with {ROOT!r}, got {prefix!r}")
    if len(prefix) > 3:
        raise InvalidNamespaceError(f"namespaces are ({ROOT!r}, domain, memory_type): {prefix!r}")
    domain = prefix[1] if len(prefix) > 1 else None
    types = (MemoryType(prefix[2]),) if len(prefix) > 2 else None
    return types, domain


def run_context() -> Any:
    """The context of the LangGraph run this call is part of (``None`` outside a run)."""
    try:
        return getattr(get_runtime(), "context", None)
    except (RuntimeError, KeyError):
        return None


def _where(filter_: dict[str, Any] | None) -> dict[str, Any] | None:
    """A Chroma ``where`` clause from a store filter on value fields."""
    clauses = []
    for field, condition in (filter_ or {}).items():
        if field not in _FILTERABLE:
            raise ValueError(f"filter: {field!r} is not filterable; use {sorted(_FILTERABLE)}")
        if isinstance(condition, dict):
            for op, operand in condition.items():
                if op not in ("$eq", "$ne", "$in", "$nin"):
                    raise ValueError(f"filter: operator {op!r} is not supported for {field!r}")
                clauses.append({field: {op: operand}})
        else:
            clauses.append({field: {"$eq": condition}})
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


class MemoryStore(BaseStore):
    """A LangGraph ``BaseStore`` over a pool (see the module docstring); made by
    ``MemoryPool.as_store()``."""

    supports_ttl = False

    def __init__(self, pool: MemoryPool, config: SearchConfig | None = None) -> None:
        self.pool = pool
        self.config = config or SearchConfig()

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run store operations in order."""
        return [self._run(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """:meth:`batch` off the event loop (an embedded pool's calls block)."""
        return await asyncio.to_thread(self.batch, list(ops))

    def _run(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op)
        if isinstance(op, PutOp):
            self._put(op)
            return None
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._namespaces(op)
        raise TypeError(f"unknown store operation {type(op).__name__}")

    def _get(self, op: GetOp) -> Item | None:
        record = self.pool.get(op.key)
        if record is None or record.flags.get("quarantined"):
            return None
        if _namespace(record) != tuple(op.namespace):
            return None
        return _item(record)

    def _put(self, op: PutOp) -> None:
        namespace = tuple(op.namespace)
        if len(namespace) != 3 or namespace[0] != ROOT:
            raise InvalidNamespaceError(
                f"put into ({ROOT!r}, domain, memory_type), got {namespace!r}"
            )
        if op.value is None:
            if self._get(GetOp(namespace, op.key)) is not None:
                self.pool.delete(op.key)
            return
        kinds = secrets_in_id(op.key)
        if kinds:
            raise ValueError(
                f"key: looks like it holds a secret ({', '.join(sorted(set(kinds)))}); keys are "
                "stored in clear, choose another"
            )
        value = dict(op.value)
        if not isinstance(value.get("content"), str):
            raise ValueError("value: needs a 'content' string (what a reading agent is shown)")
        value.setdefault("key", value["content"][:2000])
        value.setdefault("task_id", op.key[:256])
        value.update(id=op.key, domain=namespace[1], memory_type=namespace[2])
        self.pool.upsert(MemoryRecord.model_validate(value), merge_duplicates=False)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        types, domain = _scope(tuple(op.namespace_prefix))
        where = _where(op.filter)
        if op.query:
            context = run_context()
            config = self.config.for_run(context)
            if types:  # the namespace narrows the types the settings allow
                allowed = [t for t in config.types if t in types]
                config = replace(config, memory_types=allowed or types)
                if not allowed:
                    return []
            # the caller's limit, never more than the run's own k (as every read path gives)
            ceiling = op.limit if context_field(context, "k") is None else config.k
            config = replace(config, k=min(op.limit, ceiling) + op.offset)
            scope = SearchScope.of(context, where=where)
            if domain is not None:
                if scope.domains is not None and domain not in scope.domains:
                    return []  # outside the run's source domains
                scope = replace(scope, domains=(domain,))
            hits = self.pool.search(op.query, config, scope=scope)
            return [_item(h.record, h.similarity) for h in hits[op.offset :]]
        listing: dict[str, Any] = {"memory_types": list(types or MemoryType)}
        if domain is not None:
            listing["domains"] = domain
        quarantine = {"flag_quarantined": False}
        clauses = {"$and": [quarantine, where]} if where else quarantine
        records = self.pool.list_records(extra=clauses, **listing)
        return [_item(r) for r in records[op.offset : op.offset + op.limit]]

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        visible = self.pool.list_records(extra={"flag_quarantined": False})
        found = sorted({_namespace(r) for r in visible})
        if op.max_depth is not None:
            found = sorted({ns[: op.max_depth] for ns in found})
        for condition in op.match_conditions or ():
            found = [ns for ns in found if _matches(ns, condition)]
        return found[op.offset : op.offset + op.limit]


def _matches(namespace: tuple[str, ...], condition: MatchCondition) -> bool:
    path = tuple(condition.path)
    part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
    return len(part) == len(path) and all(p in ("*", n) for p, n in zip(path, part, strict=True))


class MemoryRetriever(BaseRetriever):
    """A LangChain retriever over the pool's one search: inside a graph run the run's context
    decides the scope (leave-one-domain-out and leave-one-task-out, as for the retrieval node);
    ``exclude_domains`` leaves out more; ``config`` gates and re-ranks."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    pool: InstanceOf[MemoryPool]
    config: InstanceOf[SearchConfig] = SearchConfig()
    exclude_domains: tuple[str, ...] = ()

    @field_validator("exclude_domains", mode="before")
    @classmethod
    def _one_domain_alone(cls, value: Any) -> Any:
        """One domain given alone is that domain, not its letters."""
        return (value,) if isinstance(value, str) else value

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        context = run_context()
        scope = SearchScope.of(context, exclude_domains=self.exclude_domains)
        hits = self.pool.search(query, self.config.for_run(context), scope=scope)
        return [_document(hit) for hit in hits]


def _document(hit: ScoredMemory) -> Document:
    record = hit.record
    metadata = {
        "id": record.id,
        "domain": record.domain,
        "memory_type": record.memory_type.value,
        "outcome": record.outcome.value,
        "task_id": record.task_id,
        "similarity": round(hit.similarity, 4),
    }
    return Document(page_content=record.content, metadata=metadata, id=record.id)
