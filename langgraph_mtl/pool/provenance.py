"""Provenance of merged memories: every duplicate merged into a record is kept among its
``sources`` (``MemoryRecord.sources``), with a ``flag_merged`` count. Written by the pool when
it merges a duplicate, read by consolidation."""

from __future__ import annotations

from langgraph_mtl.memory.records import MemoryRecord, MemorySource
from langgraph_mtl.pool.codec import decode_sources, encode_sources
from langgraph_mtl.pool.typed_collections import TypedCollections

__all__ = ["merge_provenance", "sources_of"]


def sources_of(collection: TypedCollections, record_id: str) -> tuple[MemorySource, ...] | None:
    """The stored sources of a record (``None`` if there is no such record)."""
    got = collection.get(ids=[record_id], include=["metadatas"])
    if not got["ids"]:
        return None
    return decode_sources(got["metadatas"][0])


def merge_provenance(
    collection: TypedCollections,
    target_id: str,
    record: MemoryRecord,
) -> None:
    """Record ``record`` (and the sources merged into it) as sources of ``target_id``;
    idempotent."""
    sources = sources_of(collection, target_id)
    if sources is None:
        return
    known = {s.id for s in sources}
    new = [s for s in (MemorySource.of(record), *record.sources) if s.id not in known]
    if not new:
        return
    collection.update(ids=[target_id], metadatas=[encode_sources([*sources, *new])])
