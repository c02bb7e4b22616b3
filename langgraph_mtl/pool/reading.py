"""The reading half of the pool: counts, lookups, listings, the nearest records in the index,
and the one search (:mod:`.search`)."""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from langgraph_mtl.memory.records import MemoryRecord
from langgraph_mtl.pool.codec import (
    PAGE_SIZE,
    decode_sources,
    filter_where,
    matches_where,
    readable,
)
from langgraph_mtl.pool.reports import ScoredMemory
from langgraph_mtl.pool.search import (
    Query,
    SearchConfig,
    SearchScope,
    checked_k,
    run_search,
    settings_of,
)
from langgraph_mtl.pool.typed_collections import TypedCollections, collection_pages, types_in

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings

    from langgraph_mtl.pool.memory_pool import MemoryPool

__all__ = ["OVERFETCH_MAX", "PoolReader"]

log = logging.getLogger(__name__)

OVERFETCH_MAX = 1024  # at most; a rarer filter is left to Chroma's filtered query


class PoolReader:
    """Read operations over ``self.collection`` and ``self.embeddings`` (a base of
    :class:`~langgraph_mtl.pool.memory_pool.MemoryPool`)."""

    collection: TypedCollections
    embeddings: Embeddings
    pass_rates: dict[str, float]  # per filter, the share of neighbours that passed it last

    def count(self) -> int:
        """How many records the pool holds."""
        return int(self.collection.count())

    def get(self, record_id: str) -> MemoryRecord | None:
        """One record by id, or ``None``."""
        if not isinstance(record_id, str):
            raise TypeError(f"record_id: expected a memory id (str), got {record_id!r:.80}")
        got = self.collection.get(ids=[record_id], include=["documents", "metadatas"])
        if not got["ids"]:
            return None
        return readable(got["ids"][0], got["documents"][0], got["metadatas"][0])

    def list_records(self, *, limit: int | None = None, **filters: Any) -> list[MemoryRecord]:
        """Records matching the filters of :func:`build_where`, in storage order."""
        if limit is not None:
            limit = checked_k(limit, "limit")
        out: list[MemoryRecord] = []
        for record, _ in self.iter_records(filter_where(filters), with_embeddings=False):
            out.append(record)
            if limit is not None and len(out) >= limit:
                break
        return out

    def with_embeddings(self, **filters: Any) -> Iterator[tuple[MemoryRecord, list[float]]]:
        """Records matching the filters of :func:`build_where`, each with its stored vector."""
        for record, vector in self.iter_records(filter_where(filters), with_embeddings=True):
            yield record, vector if vector is not None else []

    def covered_tasks(self) -> set[tuple[str, str]]:
        """Every (domain, task id) with a memory here, counting the tasks of merged duplicates."""
        covered: set[tuple[str, str]] = set()
        for page in self.collection.pages(None, ["metadatas"], PAGE_SIZE):
            for meta in page["metadatas"]:
                domain = str(meta.get("domain"))
                covered.add((domain, str(meta.get("task_id"))))
                for source in decode_sources(meta):
                    covered.add((domain, source.task_id))
        return covered

    def iter_records(
        self, where: dict[str, Any] | None, *, with_embeddings: bool
    ) -> Iterator[tuple[MemoryRecord, list[float] | None]]:
        include = ["documents", "metadatas"] + (["embeddings"] if with_embeddings else [])
        for page in self.collection.pages(where, include, PAGE_SIZE):
            embeddings = page.get("embeddings")
            for i, record_id in enumerate(page["ids"]):
                vector = None
                if with_embeddings and embeddings is not None:
                    vector = [float(x) for x in embeddings[i]]
                record = readable(record_id, page["documents"][i], page["metadatas"][i])
                if record is not None:
                    yield record, vector

    def search(
        self,
        query: Query,
        config: SearchConfig | None = None,
        *,
        scope: SearchScope | None = None,
        candidates: int | None = None,
        **options: Any,
    ) -> list[ScoredMemory]:
        """The one search (:mod:`langgraph_mtl.pool.search`): the memories nearest ``query``
        (a text, a vector, or a text per memory type) that ``scope`` may see, ranked and gated
        by ``config``, best first. Quarantined memories are left out unless the scope says.

        ``options`` are the fields of either object, as a shorthand:
        ``pool.search("q", k=5, exclude_domains="python")``. Leave-one-domain-out is
        ``domain=<the task's domain>`` (or ``exclude_domains``). ``candidates``: return that
        many instead of ``k`` (for a caller that re-ranks them further)."""
        config, scope = settings_of(config, scope, options)
        pool = cast("MemoryPool", self)  # the reading half of one
        return run_search(pool, query, config, scope, candidates=candidates)

    def nearest(
        self, vector: list[float], k: int, where: dict[str, Any] | None
    ) -> list[ScoredMemory]:
        """The ``k`` nearest records passing ``where``, over the collections of its types: the
        index itself, with a filter. What an agent is shown comes from :meth:`search`."""
        rows: list[_Row] = []
        for part in self.collection.collections(types_in(where)):
            rows += self._nearest_in(part, vector, k, where)
        rows.sort(key=lambda row: row[3])  # stable: ties keep Chroma's order
        unique: dict[str, _Row] = {}
        for row in rows:  # a record held twice while older records move: once, the nearest
            unique.setdefault(row[0], row)
        found = [
            (readable(record_id, doc, meta), 1.0 - float(distance))
            for record_id, doc, meta, distance in unique.values()
        ]
        return [ScoredMemory(record, similarity) for record, similarity in found if record][:k]

    def _nearest_in(
        self, part: Any, vector: list[float], k: int, where: dict[str, Any] | None
    ) -> list[_Row]:
        """The ``k`` nearest records of one Chroma collection passing ``where``.

        Chroma's filtered query costs many times its index (and grows with the pool), so the
        index is asked for more neighbours than needed, unfiltered, and the filter applied
        here (a record other code stored unreadably passes no filter), asking for four times
        as many while too few pass; a filter so rare that even ``OVERFETCH_MAX`` neighbours
        hold fewer than ``k`` goes to Chroma's filtered query.
        The share that passed is remembered per filter, so the first request usually does.
        """
        signature = f"{part.name} {json.dumps(where, sort_keys=True)}"
        wanted = k if where is None else self._first_fetch(k, signature)
        while True:
            try:
                found = part.query(query_embeddings=[vector], n_results=wanted, include=_INCLUDE)
            except Exception as exc:  # a Chroma server compacting the index under writers
                if where is None or type(exc).__name__ != "InternalError":
                    raise
                log.info("unfiltered query failed (%s): Chroma's filtered query instead", exc)
                return _filtered(part, vector, k, where)
            rows = _rows(found)
            try:
                passing = [row for row in rows if matches_where(where, row[2]) and _readable(row)]
            except ValueError:  # an operator only Chroma knows (in extra_where): Chroma decides
                return _filtered(part, vector, k, where)
            if where is not None:
                self._remember_pass_rate(signature, len(passing), len(rows))
            if len(passing) >= k:
                return passing[:k]
            if len(rows) < wanted:  # the index has no more, it says: an HNSW graph can strand
                if len(rows) < part.count():  # records no search reaches, so check it
                    return _completed(part, vector, k, where, passing[:k])
                return passing[:k]
            if wanted >= OVERFETCH_MAX:
                return _filtered(part, vector, k, where)
            wanted = min(wanted * 4, OVERFETCH_MAX)

    def _first_fetch(self, k: int, signature: str) -> int:
        """Neighbours to ask for first: twice what the filter's last pass rate needs."""
        rate = self.pass_rates.get(signature, 0.5)
        return max(k, min(OVERFETCH_MAX, math.ceil(2 * k / max(rate, 1e-3)) + k))

    def _remember_pass_rate(self, signature: str, passed: int, seen: int) -> None:
        if len(self.pass_rates) > 256:
            self.pass_rates.clear()
        self.pass_rates[signature] = max(passed, 1) / max(seen, 1)


_Row = tuple[str, str, dict[str, Any], float]


def _readable(row: _Row) -> bool:
    """Whether a row can be read as a record: one that cannot does not count towards ``k``."""
    return readable(row[0], row[1], row[2]) is not None


_INCLUDE = ["documents", "metadatas", "distances"]
_STORED = ["documents", "metadatas", "embeddings"]


def _filtered(part: Any, vector: list[float], k: int, where: dict[str, Any] | None) -> list[_Row]:
    """Chroma's own filtered query, for any filter; its cost grows with the pool. Fewer than
    ``k`` found may be records its index cannot reach: those are scored one by one."""
    rows = _rows(part.query(query_embeddings=[vector], n_results=k, where=where, include=_INCLUDE))
    return rows if len(rows) >= k else _completed(part, vector, k, where, rows)


def _completed(
    part: Any, vector: list[float], k: int, where: dict[str, Any] | None, rows: list[_Row]
) -> list[_Row]:
    """The exact answer in place of the index's short ``rows``; those rows as they are while
    a Chroma server, compacting its index, cannot read the stored vectors."""
    try:
        return _exact(part, vector, k, where)
    except Exception as exc:
        if type(exc).__name__ != "InternalError":
            raise
        log.info("exact search failed (%s): the index's answer as it is", exc)
        return rows


def _exact(part: Any, vector: list[float], k: int, where: dict[str, Any] | None) -> list[_Row]:
    """The ``k`` nearest records passing ``where``, every one of them scored: exact where the
    index is approximate, at the cost of reading each record that passes."""
    query = np.asarray(vector, dtype=float)
    query /= max(float(np.linalg.norm(query)), 1e-12)
    rows: list[_Row] = []
    for page in collection_pages(part, where, _STORED, PAGE_SIZE):
        vectors = np.asarray(page["embeddings"], dtype=float)
        norms = np.clip(np.linalg.norm(vectors, axis=1), 1e-12, None)
        distances = 1.0 - (vectors @ query) / norms  # cosine, as the pool's index measures
        rows += zip(
            page["ids"], page["documents"], page["metadatas"], distances.tolist(), strict=True
        )
    rows.sort(key=lambda row: row[3])
    return rows[:k]


def _rows(found: dict[str, Any]) -> list[_Row]:
    """A Chroma query's single result list as (id, document, metadata, distance) rows."""
    return list(
        zip(
            found["ids"][0],
            found["documents"][0],
            found["metadatas"][0],
            found["distances"][0],
            strict=True,
        )
    )
