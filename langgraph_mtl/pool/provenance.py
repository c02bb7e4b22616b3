"""Provenance of merged memories: every source (id, task, outcome, model, time) of a record is
kept in its ``sources`` metadata, with a ``flag_merged`` count. Written by the pool when it
merges a duplicate, read by consolidation."""

from __future__ import annotations

import json
from typing import Any

from langgraph_mtl.memory.records import MemoryRecord

__all__ = ["merge_provenance", "sources_of"]


def _source(record: MemoryRecord) -> dict[str, Any]:
    return {
        "id": record.id,
        "task_id": record.task_id,
        "outcome": record.outcome.value,
        "agent_model": record.agent_model,
        "created_at": record.created_at,
    }


def sources_of(collection: Any, record_id: str) -> list[dict[str, Any]] | None:
    """The stored ``sources`` of a record (``None`` if there is no such record)."""
    got = collection.get(ids=[record_id], include=["metadatas"])
    if not got["ids"]:
        return None
    return list(json.loads(got["metadatas"][0].get("sources") or "[]"))


def merge_provenance(
    collection: Any,
    target_id: str,
    record: MemoryRecord,
    inherited: list[dict[str, Any]] = (),  # type: ignore[assignment]
) -> None:
    """Record ``record`` (and its own sources) as sources of ``target_id``; idempotent."""
    sources = sources_of(collection, target_id)
    if sources is None:
        return
    known = {s.get("id") for s in sources}
    new = [s for s in [_source(record), *inherited] if s.get("id") not in known]
    if not new:
        return
    sources += new
    collection.update(
        ids=[target_id],
        metadatas=[{"sources": json.dumps(sources), "flag_merged": len(sources)}],
    )
