"""Abstraction analysis: how strongly each memory type clusters by source domain.

Davies-Bouldin index (higher = domains less separated) and LISI (local inverse Simpson's index:
the effective number of domains among a memory's nearest neighbours; higher = more mixed), plus
a per-memory abstraction score: the share of the embedding that is NOT explained by the
directions separating domain centroids (the seed's domain-invariant component).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from langgraph_mtl.pool import MemoryPool

__all__ = [
    "TypeAnalysis",
    "TypeEmbeddings",
    "abstraction_scores",
    "analyse",
    "embeddings_by_type",
    "lisi",
]


@dataclass(frozen=True)
class TypeAnalysis:
    """Clustering statistics of one memory type's embeddings."""

    memory_type: str
    memories: int
    domains: int
    dbi: float
    lisi: float
    abstraction: float


@dataclass
class TypeEmbeddings:
    """One memory type's records in a pool: ids, vectors and source domains, aligned."""

    ids: list[str] = field(default_factory=list)
    vectors: list[list[float]] = field(default_factory=list)
    domains: list[str] = field(default_factory=list)


def embeddings_by_type(pool: MemoryPool) -> dict[str, TypeEmbeddings]:
    """The pool's embeddings grouped by memory type (types in name order)."""
    by_type: dict[str, TypeEmbeddings] = defaultdict(TypeEmbeddings)
    for record, vector in pool.with_embeddings():
        group = by_type[record.memory_type.value]
        group.ids.append(record.id)
        group.vectors.append(vector)
        group.domains.append(record.domain)
    return dict(sorted(by_type.items()))


def lisi(vectors: np.ndarray, labels: Sequence[str], *, neighbours: int = 30) -> float:
    """Mean inverse Simpson's index of the labels among each point's nearest neighbours (cosine)."""
    from sklearn.neighbors import NearestNeighbors

    n = len(labels)
    k = min(neighbours, n - 1)
    if k < 1:
        return 1.0
    index = NearestNeighbors(n_neighbors=k + 1, metric="cosine").fit(vectors)
    _, found = index.kneighbors(vectors)
    names = np.asarray(labels)
    scores = []
    for row in found:
        _, counts = np.unique(names[row[1:]], return_counts=True)
        share = counts / counts.sum()
        scores.append(1.0 / float((share**2).sum()))
    return float(np.mean(scores))


def abstraction_scores(vectors: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """1 - ||projection on the domain-centroid directions||^2 / ||e||^2, per memory."""
    names = np.asarray(labels)
    unit = vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
    mean = unit.mean(axis=0)
    centroids = np.stack([unit[names == d].mean(axis=0) - mean for d in np.unique(names)])
    basis, singular, _ = np.linalg.svd(centroids.T, full_matrices=False)
    basis = basis[:, singular > 1e-8]
    projected = unit @ basis
    return 1.0 - (projected**2).sum(axis=1)


def analyse(memory_type: str, vectors: np.ndarray, labels: Sequence[str]) -> TypeAnalysis:
    """DBI, LISI and mean abstraction score for one memory type (needs >= 2 domains)."""
    from sklearn.metrics import davies_bouldin_score

    domains = len(set(labels))
    if domains < 2 or len(labels) < 3:
        raise ValueError(f"{memory_type}: need memories from at least 2 domains, got {domains}")
    return TypeAnalysis(
        memory_type=memory_type,
        memories=len(labels),
        domains=domains,
        dbi=float(davies_bouldin_score(vectors, list(labels))),
        lisi=lisi(vectors, labels),
        abstraction=float(abstraction_scores(vectors, labels).mean()),
    )
