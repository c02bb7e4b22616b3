"""Duplicate memories: merging provenance into one record, and consolidating a whole pool.

A merged record keeps every source (id, task, outcome, model, time) in its ``sources`` metadata
and a ``flag_merged`` count. Merging is scoped to one memory type and one domain, so
leave-one-domain-out retrieval stays exact.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from langgraph_mtl.pool.provenance import merge_provenance

if TYPE_CHECKING:
    from langgraph_mtl.pool.memory_pool import MemoryPool

__all__ = ["ConsolidationReport", "consolidate"]


@dataclass
class ConsolidationReport:
    """What a consolidation merged: kept id -> ids folded into it."""

    merged: dict[str, list[str]] = field(default_factory=dict)

    @property
    def removed(self) -> int:
        return sum(len(v) for v in self.merged.values())


def consolidate(
    pool: MemoryPool,
    *,
    threshold: float = 0.97,
    dry_run: bool = False,
    progress: Callable[[int, int], None] | None = None,
    before_delete: Callable[[list[str]], object] | None = None,
) -> ConsolidationReport:
    """Fold near-duplicates (same type and domain, cosine >= ``threshold``) into the oldest one;
    ``before_delete`` gets the folded ids before they are deleted (e.g. to export a backup).

    Raises:
        ValueError: ``threshold`` outside [0.5, 1.0] (a low one would fold distinct memories).
    """
    if isinstance(threshold, bool) or not 0.5 <= threshold <= 1.0:
        raise ValueError(f"threshold: must be between 0.5 and 1.0, got {threshold!r}")
    report = ConsolidationReport()
    records = sorted(pool.with_embeddings(), key=lambda rv: rv[0].created_at)
    gone: set[str] = set()
    for index, (record, vector) in enumerate(records):
        if progress:
            progress(index + 1, len(records))
        if record.id in gone or vector is None:
            continue
        hits = pool.search(
            vector,
            k=10,
            domains=record.domain,
            memory_types=[record.memory_type],
            include_quarantined=True,
        )
        for hit in hits:
            other = hit.record
            if other.id == record.id or other.id in gone or hit.similarity < threshold:
                continue
            report.merged.setdefault(record.id, []).append(other.id)
            gone.add(other.id)
            if not dry_run:
                merge_provenance(pool.collection, record.id, other)
    if not dry_run and gone:
        if before_delete is not None:
            before_delete(sorted(gone))
        pool.delete(sorted(gone))
    return report
