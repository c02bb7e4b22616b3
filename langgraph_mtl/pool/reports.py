"""What the pool's operations return: scored memories, write and import reports."""

from __future__ import annotations

from dataclasses import dataclass, field

from langgraph_mtl.memory.records import MemoryRecord

__all__ = ["ImportReport", "ScoredMemory", "WriteReport"]


@dataclass(frozen=True)
class ScoredMemory:
    """A retrieved memory and its cosine similarity to the query (in [-1, 1])."""

    record: MemoryRecord
    similarity: float


@dataclass
class WriteReport:
    """What a write stored: final ids (a merged record's id is the one it merged into)."""

    ids: list[str] = field(default_factory=list)
    merged: dict[str, str] = field(default_factory=dict)
    quarantined: list[str] = field(default_factory=list)
    redacted: int = 0


@dataclass
class ImportReport:
    """What a JSONL import did: how many lines were stored and which were refused, by line."""

    imported: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)
