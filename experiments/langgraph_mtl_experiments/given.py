"""Memories a condition hands each attempt instead of searching for them, and the cap on how
often one memory may be given.

- **placebo**: k memories drawn at random (seeded per task and attempt) from the memories the
  search would choose from (the condition's types, other domains, never the task itself), in
  the same format and budget: what memories of no particular relevance do.
- **a file** (``fixed:PATH``): the memories the file lists for each task (the oracle probe
  gives a task its twin problem's reference solution this way).
- **usage cap** (``max_share``): a memory already given in its share of the condition's
  attempts sinks below every other candidate, so no single memory dominates a run.
"""

from __future__ import annotations

import json
import math
import random
import threading
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from langgraph_mtl.memory.records import MemoryRecord, MemoryType, memory_id
from langgraph_mtl.pool.memory_pool import MemoryPool
from langgraph_mtl.pool.reports import ScoredMemory
from langgraph_mtl_experiments.conditions import Condition
from langgraph_mtl_experiments.tasks import Task
from langgraph_mtl_experiments.twin_map import TwinMap

__all__ = ["GivenMemories", "UsageCap", "read_given_file"]


class UsageCap:
    """A scorer: memories given ``cap`` times already sink below every other candidate."""

    reach = 12  # candidates seen, in k: enough to pass over the memories used up

    def __init__(self, share: float, attempts: int) -> None:
        self.cap = max(1, math.floor(share * attempts))
        self.uses: Counter[str] = Counter()
        self.lock = threading.Lock()

    def __call__(self, pool: MemoryPool, hits: Sequence[ScoredMemory]) -> list[float]:
        with self.lock:
            return [-10.0 if self.uses[h.record.id] >= self.cap else 0.0 for h in hits]

    def given(self, ids: Sequence[str]) -> None:
        """Count the memories one attempt was given."""
        with self.lock:
            self.uses.update(ids)


def _record(line: int, item: Any, task_id: str) -> MemoryRecord:
    if not isinstance(item, dict):
        raise ValueError(f"line {line}: memories: each must be an object")
    if "id" in item:
        return MemoryRecord.model_validate(item)
    content = str(item.get("content", ""))
    kind = MemoryType(str(item.get("memory_type", "insight")))
    domain = str(item.get("domain", "given"))
    source = str(item.get("task_id", f"given-for-{task_id}"))
    return MemoryRecord(
        id=memory_id(kind, domain, source, content),
        memory_type=kind,
        domain=domain,
        task_id=source,
        key=str(item.get("key") or content[:2000]),
        content=content,
    )


def read_given_file(path: str | Path) -> dict[str, list[MemoryRecord]]:
    """Task id -> the memories a file gives it (see the module docstring); a bad line is an
    error naming its number."""
    given: dict[str, list[MemoryRecord]] = {}
    for number, text in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            row = json.loads(text)
            task_id = str(row["task_id"])
            given[task_id] = [_record(number, m, task_id) for m in row.get("memories", [])]
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}, line {number}: {exc}") from None
    return given


class GivenMemories:
    """What a condition with ``given`` hands each attempt (see the module docstring)."""

    def __init__(
        self, condition: Condition, pool: MemoryPool, k: int, *, twins: TwinMap | None = None
    ) -> None:
        self.condition, self.pool, self.k = condition, pool, k
        self.twins = twins or TwinMap()
        self.from_file = read_given_file(condition.given_file) if condition.given == "file" else {}
        self._candidates: list[tuple[MemoryRecord, np.ndarray]] | None = None
        self.lock = threading.Lock()

    def _pool(self) -> list[tuple[MemoryRecord, np.ndarray]]:
        with self.lock:
            if self._candidates is None:
                types = list(self.condition.memory_types)
                self._candidates = [
                    (record, np.asarray(vector, dtype=float))
                    for record, vector in self.pool.with_embeddings(memory_types=types)
                    if not record.flags.get("quarantined")
                ]
            return self._candidates

    def _scored(
        self, records: list[tuple[MemoryRecord, np.ndarray]], query: str
    ) -> list[ScoredMemory]:
        asked = np.asarray(self.pool.embeddings.embed_query(query), dtype=float)
        asked /= max(float(np.linalg.norm(asked)), 1e-12)
        out = []
        for record, vector in records:
            norm = max(float(np.linalg.norm(vector)), 1e-12)
            out.append(ScoredMemory(record, round(float(vector @ asked) / norm, 4)))
        return out

    def for_task(self, domain: str, task: Task, attempt: int) -> tuple[ScoredMemory, ...]:
        """The memories this attempt is given."""
        query = task.problem or task.instruction
        if self.condition.given == "file":
            records = self.from_file.get(task.task_id, [])
            vectors = (
                self.pool.embeddings.embed_documents([r.key for r in records]) if records else []
            )
            pairs = [(r, np.asarray(v, dtype=float)) for r, v in zip(records, vectors, strict=True)]
            return tuple(self._scored(pairs, query))
        own = self.condition.scope == "own"
        barred = {task.task_id, *self.twins.twins_of(domain, task.task_id)}
        allowed = [
            (record, vector)
            for record, vector in self._pool()
            if record.task_id not in barred and ((record.domain == domain) == own)
        ]
        seed = f"placebo-{self.condition.seed}-{domain}-{task.task_id}-{attempt}"
        chosen = random.Random(seed).sample(allowed, min(self.k, len(allowed)))
        return tuple(self._scored(chosen, query))
