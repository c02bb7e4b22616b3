"""The pool each condition sees: a seeded subset or an annotated copy, snapshotted to JSONL
with its sha256 so a run can be reproduced from its results directory."""

from __future__ import annotations

import hashlib
import io
import json
import random
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from langgraph_mtl.pool.memory_pool import MemoryPool
from langgraph_mtl.pool.opening import open_pool
from langgraph_mtl.pool.reports import ScoredMemory
from langgraph_mtl.transfer.retrieval import Scorer
from langgraph_mtl_experiments.analysis import abstraction_scores, embeddings_by_type
from langgraph_mtl_experiments.conditions import Condition

__all__ = [
    "annotate_abstraction",
    "choose_sources",
    "condition_pool",
    "pool_from_snapshot",
    "snapshot",
    "write_snapshot",
]


def _record_id(line: str) -> str:
    return str(json.loads(line)["record"]["id"])


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in name)


def condition_pool(base: MemoryPool, condition: Condition) -> MemoryPool:
    """``base`` itself, or a rebuilt sibling collection holding the condition's seeded share of
    its memory types (abstraction-scored when the condition re-weights by abstraction)."""
    if not condition.needs_own_pool:
        return base
    if condition.pool_from:  # another run's memories (a snapshot), embedded again if need be
        source = Path(condition.pool_from).read_text(encoding="utf-8").splitlines()
        lines = sorted((line for line in source if line.strip()), key=_record_id)
    else:
        buffer = io.StringIO()
        types = list(condition.memory_types)
        base.export_jsonl(buffer, with_embeddings=True, memory_types=types)
        lines = sorted(buffer.getvalue().splitlines(), key=_record_id)  # storage order varies
    keep = max(1, round(condition.pool_fraction * len(lines))) if lines else 0
    chosen = random.Random(f"pool-{condition.seed}").sample(lines, keep)
    name = f"{base.collection.name}--{_slug(condition.name)}"[:63]
    pool = base.sibling(name)
    pool.drop()  # rebuilt every time: the subset is a function of the base pool and the seed
    pool = base.sibling(name)
    pool.import_jsonl(chosen)
    if condition.abstraction_weight > 0:
        annotate_abstraction(pool)
    return pool


def annotate_abstraction(pool: MemoryPool) -> int:
    """Store each memory's abstraction score (per memory type, domains as labels) as its
    ``abstraction`` flag, which retrieval can weigh. Returns how many memories were scored."""
    scored = 0
    for group in embeddings_by_type(pool).values():
        if len(set(group.domains)) < 2:
            continue  # one domain: nothing is domain-specific relative to another
        scores = abstraction_scores(np.asarray(group.vectors, dtype=float), group.domains)
        for record_id, score in zip(group.ids, scores, strict=True):
            pool.update_flags(record_id, {"abstraction": round(float(score), 4)})
            scored += 1
    return scored


def abstraction_scorer(weight: float) -> Scorer:
    """A retrieval scorer adding ``weight`` times each memory's ``abstraction`` flag (its
    domain-invariant share, stored by :func:`annotate_abstraction`)."""

    def score(pool: MemoryPool, hits: Sequence[ScoredMemory]) -> list[float]:
        return [weight * float(h.record.flags.get("abstraction", 0.0)) for h in hits]

    return score


def condition_scorers(condition: Condition) -> tuple[Scorer, ...]:
    """The re-ranking a condition asks for (abstraction-weighted retrieval, or none)."""
    if condition.abstraction_weight > 0:
        return (abstraction_scorer(condition.abstraction_weight),)
    return ()


def choose_sources(condition: Condition, target: str, available: list[str]) -> tuple[str, ...]:
    """The condition's seeded draw of source domains for ``target`` (never ``target``)."""
    others = sorted(d for d in set(available) if d != target)
    if condition.source_count is None or condition.source_count >= len(others):
        return tuple(others)
    draw = random.Random(f"sources-{condition.seed}-{target}").sample(
        others, condition.source_count
    )
    return tuple(sorted(draw))


def write_snapshot(pool: MemoryPool, path: Path, **filters: Any) -> dict[str, object]:
    """Write the pool's records (filtered like :func:`build_where`) to ``path`` as JSONL, lines
    sorted (the export sorts keys), so equal records give an equal sha256 whatever order the
    store returned them in; returns the manifest entry (file, memories, sha256)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.StringIO()
    count = pool.export_jsonl(buffer, **filters)
    text = "".join(sorted(buffer.getvalue().splitlines(keepends=True)))
    path.write_text(text, encoding="utf-8")
    return {
        "file": path.name,
        "memories": count,
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
    }


def pool_from_snapshot(path: Path) -> MemoryPool:
    """A new in-memory pool holding the records of a snapshot written by :func:`write_snapshot`,
    embedded again with the default embedder (near-duplicates are kept apart, as stored).

    Raises:
        ValueError: a line of the snapshot is not a memory record.
    """
    name = f"snapshot-{uuid.uuid4().hex[:12]}"  # in-memory collections share one process
    pool = open_pool(":memory:", collection=name, dedup_threshold=None)
    with path.open(encoding="utf-8") as lines:
        report = pool.import_jsonl(lines)
    if report.errors:
        line, why = report.errors[0]
        raise ValueError(f"{path}, line {line}: {why} ({len(report.errors)} lines refused)")
    return pool


def snapshot(pool: MemoryPool, condition: Condition, directory: Path) -> dict[str, object]:
    """Write the memories the condition can retrieve to ``directory``; returns the manifest
    entry (file, memories, sha256)."""
    path = directory / f"{_slug(condition.name)}.jsonl"
    return write_snapshot(pool, path, memory_types=list(condition.memory_types))
