"""Abstraction analysis: how strongly each memory type clusters by source domain.

Davies-Bouldin index (higher = domains less separated) and LISI (local inverse Simpson's index:
the effective number of domains in a memory's perplexity-weighted neighbourhood, as defined by
Korsunsky et al., 2019; higher = more mixed), plus
a per-memory abstraction score: the share of the embedding that is NOT explained by the
directions separating domain centroids (the seed's domain-invariant component).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from langgraph_mtl.pool.memory_pool import MemoryPool

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


def lisi(vectors: np.ndarray, labels: Sequence[str], *, perplexity: float = 30.0) -> float:
    """Mean LISI (Korsunsky et al., 2019): per point, the inverse Simpson's index of the labels
    over its ``3 * perplexity`` nearest neighbours, weighted by a Gaussian kernel whose width is
    set (by bisection on its precision) so the weights' entropy is ``log(perplexity)``.

    Vectors are scaled to unit length first, so the distances are those of cosine similarity.
    On fewer than ``3 * perplexity + 1`` points the perplexity is lowered to fit. Ranges from 1 (neighbourhoods of one label) to the number of labels (evenly mixed).
    """
    from sklearn.neighbors import NearestNeighbors

    names = np.asarray(labels)
    n = len(names)
    perplexity = min(perplexity, (n - 1) // 3)  # each point needs 3 x perplexity neighbours
    if perplexity < 1:
        return 1.0
    k = int(3 * perplexity)
    unit = vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
    distances, found = NearestNeighbors(n_neighbors=k + 1).fit(unit).kneighbors(unit)
    weights = _perplexity_weights(distances[:, 1:], perplexity)
    neighbour_labels = names[found[:, 1:]]
    simpson = np.zeros(n)
    for label in np.unique(names):
        share = (weights * (neighbour_labels == label)).sum(axis=1)
        simpson += share**2
    return float(np.mean(1.0 / simpson))


def _perplexity_weights(
    distances: np.ndarray, perplexity: float, *, tol: float = 1e-5, tries: int = 50
) -> np.ndarray:
    """Row-wise kernel weights exp(-beta * d) / Z with beta bisected until the entropy of each
    row is log(perplexity) (as in the authors' ``compute_simpson_index``)."""
    target = np.log(perplexity)
    rows = distances.shape[0]
    beta = np.ones(rows)
    low = np.full(rows, -np.inf)
    high = np.full(rows, np.inf)

    def entropy(b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        shifted = distances - distances[:, :1]  # subtracting each row's nearest keeps exp finite
        kernel = np.exp(-shifted * b[:, None])
        total = kernel.sum(axis=1)
        mean_distance = (shifted * kernel).sum(axis=1) / total
        return np.log(total) + b * mean_distance, kernel / total[:, None]

    h, weights = entropy(beta)
    for _ in range(tries):
        diff = h - target
        if np.all(np.abs(diff) <= tol):
            break
        wide = diff > 0  # entropy too high: sharpen the kernel
        low = np.where(wide, beta, low)
        high = np.where(wide, high, beta)
        beta = np.where(
            wide,
            np.where(np.isinf(high), beta * 2, (beta + high) / 2),
            np.where(np.isinf(low), beta / 2, (beta + low) / 2),
        )
        h, weights = entropy(beta)
    return weights


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
