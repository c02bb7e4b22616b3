"""The reading half of the pool: counts, lookups, listings, and similarity search, with
quarantined memories left out of searches unless asked for."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from langgraph_mtl.memory.records import MemoryRecord, MemoryType
from langgraph_mtl.pool.codec import (
    PAGE_SIZE,
    QUARANTINE_PREFIX,
    as_values,
    build_where,
    from_chroma,
)
from langgraph_mtl.pool.reports import ScoredMemory

__all__ = ["PoolReader"]


class PoolReader:
    """Read operations over ``self.collection`` and ``self.embeddings`` (a base of
    :class:`~langgraph_mtl.pool.memory_pool.MemoryPool`)."""

    collection: Any
    embeddings: Any

    def count(self) -> int:
        """How many records the pool holds."""
        return int(self.collection.count())

    def get(self, record_id: str) -> MemoryRecord | None:
        """One record by id, or ``None``."""
        got = self.collection.get(ids=[record_id], include=["documents", "metadatas"])
        if not got["ids"]:
            return None
        return from_chroma(got["ids"][0], got["documents"][0], got["metadatas"][0])

    def list_records(self, *, limit: int | None = None, **filters: Any) -> list[MemoryRecord]:
        """Records matching the filters of :func:`build_where`, in storage order."""
        out: list[MemoryRecord] = []
        for record, _ in self.iter_records(build_where(**filters), with_embeddings=False):
            out.append(record)
            if limit is not None and len(out) >= limit:
                break
        return out

    def with_embeddings(self, **filters: Any) -> Iterator[tuple[MemoryRecord, list[float]]]:
        """Records matching the filters of :func:`build_where`, each with its stored vector."""
        for record, vector in self.iter_records(build_where(**filters), with_embeddings=True):
            yield record, vector if vector is not None else []

    def covered_tasks(self) -> set[tuple[str, str]]:
        """Every (domain, task id) with a memory here, counting the tasks of merged duplicates."""
        covered: set[tuple[str, str]] = set()
        offset = 0
        while True:
            page = self.collection.get(include=["metadatas"], limit=PAGE_SIZE, offset=offset)
            if not page["ids"]:
                return covered
            for meta in page["metadatas"]:
                domain = str(meta.get("domain"))
                covered.add((domain, str(meta.get("task_id"))))
                for source in json.loads(str(meta.get("sources") or "[]")):
                    covered.add((domain, str(source.get("task_id"))))
            offset += len(page["ids"])

    def iter_records(
        self, where: dict[str, Any] | None, *, with_embeddings: bool
    ) -> Iterator[tuple[MemoryRecord, list[float] | None]]:
        include = ["documents", "metadatas"] + (["embeddings"] if with_embeddings else [])
        offset = 0
        while True:
            page = self.collection.get(where=where, include=include, limit=PAGE_SIZE, offset=offset)
            if not page["ids"]:
                return
            embeddings = page.get("embeddings")
            for i, record_id in enumerate(page["ids"]):
                vector = None
                if with_embeddings and embeddings is not None:
                    vector = [float(x) for x in embeddings[i]]
                yield from_chroma(record_id, page["documents"][i], page["metadatas"][i]), vector
            offset += len(page["ids"])

    def search(
        self,
        query: str | Sequence[float],
        *,
        k: int = 3,
        exclude_domains: str | Iterable[str] | None = None,
        domains: str | Iterable[str] | None = None,
        memory_types: Any = None,
        outcomes: Any = None,
        agent_models: str | Iterable[str] | None = None,
        exclude_task_ids: str | Iterable[str] | None = None,
        extra_where: dict[str, Any] | None = None,
        include_quarantined: bool = False,
    ) -> list[ScoredMemory]:
        """The ``k`` memories most similar to ``query`` (text or a vector), best first.

        ``exclude_domains`` is how leave-one-domain-out is done: pass the task's own domain.
        Quarantined memories are left out unless ``include_quarantined`` (they are stored
        under a prefixed memory type, so leaving them out costs no extra filter).
        """
        types = [MemoryType(t).value for t in as_values(memory_types)] or [
            t.value for t in MemoryType
        ]
        if include_quarantined:  # quarantined records are stored under a prefixed type
            types += [QUARANTINE_PREFIX + t for t in types]
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        vector = self.embeddings.embed_query(query) if isinstance(query, str) else list(query)
        where = build_where(
            exclude_domains=exclude_domains,
            domains=domains,
            memory_types=types,
            outcomes=outcomes,
            agent_models=agent_models,
            exclude_task_ids=exclude_task_ids,
            extra=extra_where,
        )
        result = self.collection.query(
            query_embeddings=[[float(x) for x in vector]],
            n_results=k,
            where=where,
            include=["documents", "metadatas", "distances"],
        )
        hits = []
        for record_id, doc, meta, distance in zip(
            result["ids"][0],
            result["documents"][0],
            result["metadatas"][0],
            result["distances"][0],
            strict=True,
        ):
            hits.append(ScoredMemory(from_chroma(record_id, doc, meta), 1.0 - float(distance)))
        return hits
