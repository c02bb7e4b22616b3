"""Benchmark data: memory-like texts, and pools of any size built from their real embeddings.

Queries and a few thousand base texts are embedded by the real default embedder; a larger pool
repeats those vectors with small noise (synthetic for scale, realistic in where they cluster).
Memory types and domains are drawn independently of the vectors, as in a shared pool.
"""

from __future__ import annotations

import random

import numpy as np

from langgraph_mtl import MemoryRecord, MemoryType
from langgraph_mtl.memory.records import memory_id

DOMAINS = ["python", "rust", "verilog", "shell", "data", "repo", "ml", "sql"]
TYPES = list(MemoryType)
VERBS = ["run", "check", "inspect", "compile", "simulate", "profile", "test", "refactor", "read"]
OBJECTS = [
    "the unit tests",
    "the build log",
    "the schema",
    "the failing case",
    "the edge cases",
    "the dependency versions",
    "the exit code",
    "the waveform",
    "the stack trace",
]
ADVICE = [
    "before submitting",
    "after each edit",
    "when output is empty",
    "before optimising",
    "when the spec is ambiguous",
    "if the tests time out",
    "on a fresh checkout",
]


def memory_texts(n: int, seed: int) -> list[str]:
    """``n`` short, memory-like sentences."""
    rng = random.Random(seed)
    return [
        f"{rng.choice(VERBS).capitalize()} {rng.choice(OBJECTS)} {rng.choice(ADVICE)} "
        f"({rng.choice(DOMAINS)} memory {i})"
        for i in range(n)
    ]


def noisy_vectors(base: np.ndarray, start: int, count: int, seed: int) -> np.ndarray:
    """Rows ``start..start+count`` of an endless pool: base vectors plus noise, unit length."""
    rng = np.random.default_rng(seed + start)
    rows = base[np.arange(start, start + count) % len(base)]
    rows = rows + rng.normal(0.0, 0.03, rows.shape).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def records(texts: list[str], start: int, count: int, seed: int) -> list[MemoryRecord]:
    """Records ``start..start+count`` with types and domains drawn independently of the text."""
    rng = random.Random(seed + start)
    out = []
    for i in range(start, start + count):
        kind, domain = rng.choice(TYPES), rng.choice(DOMAINS)
        text = f"{texts[i % len(texts)]} #{i}"
        out.append(
            MemoryRecord(
                id=memory_id(kind, domain, f"t{i}", str(i)),
                memory_type=kind,
                domain=domain,
                task_id=f"t{i}",
                key=text,
                content=text,
            )
        )
    return out
