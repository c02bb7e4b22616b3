"""Utility feedback: which memory was retrieved by which run, and whether that run passed.

Each (run, memory) pair is one event record in a companion Chroma collection, written with a
stable id: writes from many processes never race (no read-modify-write) and a retried report
counts once. Counters are computed from the events.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from langgraph_mtl.pool.memory_pool import MemoryPool
    from langgraph_mtl.pool.reports import ScoredMemory
    from langgraph_mtl.pool.search import Scorer

__all__ = ["Utility", "prune", "record_feedback", "utility", "utility_scorer"]

_NAMESPACE = uuid.UUID("0b6c4a52-6f0e-5d55-8b1e-66656564626b")


@dataclass(frozen=True)
class Utility:
    """How often a memory was retrieved, and by runs that passed (helped) or failed (hurt)."""

    retrieved: int = 0
    helped: int = 0
    hurt: int = 0

    @property
    def score(self) -> float:
        """(helped - hurt) / (retrieved + 2): in (-1, 1), 0 for an unknown memory."""
        return (self.helped - self.hurt) / (self.retrieved + 2)


def _events(pool: MemoryPool) -> Any:
    name = f"{pool.collection.name}__feedback"
    return pool.client.get_or_create_collection(name, embedding_function=None)


def record_feedback(
    pool: MemoryPool, memory_ids: Iterable[str], *, run_id: str, passed: bool | None
) -> int:
    """Record that run ``run_id`` used these memories and passed / failed / is unknown."""
    ids = sorted(set(memory_ids))
    if not ids:
        return 0
    effect = "neutral" if passed is None else ("helped" if passed else "hurt")
    now = datetime.now(UTC).isoformat(timespec="seconds")
    _events(pool).upsert(
        ids=[str(uuid.uuid5(_NAMESPACE, f"{run_id}|{m}")) for m in ids],
        embeddings=[[1.0]] * len(ids),
        metadatas=[{"memory_id": m, "run_id": run_id, "effect": effect, "at": now} for m in ids],
    )
    return len(ids)


def utility(pool: MemoryPool, memory_ids: Sequence[str]) -> dict[str, Utility]:
    """Counters for each memory id (zero for a memory never retrieved)."""
    counts: dict[str, list[int]] = {m: [0, 0, 0] for m in memory_ids}
    if not counts:
        return {}
    got = _events(pool).get(where={"memory_id": {"$in": list(counts)}}, include=["metadatas"])
    for meta in got["metadatas"]:
        row = counts[meta["memory_id"]]
        row[0] += 1
        row[1] += meta["effect"] == "helped"
        row[2] += meta["effect"] == "hurt"
    return {m: Utility(*row) for m, row in counts.items()}


def prune(
    pool: MemoryPool,
    *,
    unused_days: int | None = None,
    hurt_margin: int | None = None,
    dry_run: bool = False,
    before_delete: Callable[[list[str]], object] | None = None,
) -> list[str]:
    """Forget memories by rule: never retrieved and older than ``unused_days``, or hurt more
    often than helped by at least ``hurt_margin``. Returns the ids (deleted unless dry_run;
    ``before_delete`` gets them first, e.g. to export a backup).

    Raises:
        ValueError: a rule that is not a whole number >= 1 (``-1`` days would forget everything).
    """
    for name, value in (("unused_days", unused_days), ("hurt_margin", hurt_margin)):
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or value < 1
        ):
            raise ValueError(f"{name}: must be a whole number >= 1, got {value!r}")
    if unused_days is not None and unused_days > 36_500:
        raise ValueError(f"unused_days: at most 36500 (100 years), got {unused_days}")
    records = pool.list_records()
    stats = utility(pool, [r.id for r in records])
    cutoff = datetime.now(UTC) - timedelta(days=unused_days) if unused_days else None
    doomed = []
    for record in records:
        use = stats[record.id]
        created = datetime.fromisoformat(record.created_at) if record.created_at else None
        stale = (
            cutoff is not None and use.retrieved == 0 and created is not None and created < cutoff
        )
        harmful = hurt_margin is not None and use.hurt - use.helped >= hurt_margin
        if stale or harmful:
            doomed.append(record.id)
    if doomed and not dry_run:
        if before_delete is not None:
            before_delete(doomed)
        pool.delete(doomed)
    return doomed


def utility_scorer(weight: float) -> Scorer:
    """A scorer (see :class:`~langgraph_mtl.pool.search.SearchConfig`) adding ``weight`` times
    each memory's utility (helped minus hurt, see :func:`utility`): memories with a poor
    record sink."""

    def score(pool: MemoryPool, hits: Sequence[ScoredMemory]) -> list[float]:
        stats = utility(pool, [h.record.id for h in hits])
        return [weight * stats[h.record.id].score for h in hits]

    return score
