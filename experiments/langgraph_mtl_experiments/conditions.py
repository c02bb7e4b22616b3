"""Experimental conditions and the sweeps built from them.

A condition says what the agent may retrieve: nothing (zero-shot), other domains' memories
of some types (MTL, leave-one-domain-out), or its own domain's (the in-domain baseline); and
how: the query strategy, LLM reranking, a seeded share of the pool, a seeded number of source
domains, and abstraction-score re-weighting.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from langgraph_mtl.memory.records import MemoryType
from langgraph_mtl.transfer.retrieval import QueryStrategy

__all__ = ["CONDITIONS", "SWEEPS", "Condition", "resolve_conditions"]


@dataclass(frozen=True)
class Condition:
    """What the agent may retrieve, and how (see the module docstring)."""

    name: str
    memory_types: tuple[str, ...] = ()
    scope: Literal["cross", "own"] = "cross"  # other domains only / the task's domain only
    strategy: str = QueryStrategy.AUTO.value  # the query made from the task
    rerank: bool = False  # the model reorders 3k candidates
    pool_fraction: float = 1.0  # seeded random share of the pool that is kept
    source_count: int | None = None  # seeded number of source domains per target domain
    seed: int = 0
    abstraction_weight: float = 0.0  # rank by similarity + weight * abstraction score
    min_similarity: float | None = None  # relevance gate: less similar memories are not given

    def __post_init__(self) -> None:
        for kind in self.memory_types:
            MemoryType(kind)
        QueryStrategy(self.strategy)
        if self.scope not in ("cross", "own"):
            raise ValueError(f"{self.name}: scope must be 'cross' or 'own', got {self.scope!r}")
        if not 0 < self.pool_fraction <= 1:
            raise ValueError(f"{self.name}: pool_fraction must be in (0, 1]")
        if self.min_similarity is not None and not -1 <= self.min_similarity <= 1:
            raise ValueError(f"{self.name}: min_similarity must be a cosine in [-1, 1]")
        if self.source_count is not None and self.source_count < 1:
            raise ValueError(f"{self.name}: source_count must be >= 1")

    @property
    def uses_memory(self) -> bool:
        return bool(self.memory_types)

    @property
    def needs_own_pool(self) -> bool:
        """Whether the condition runs on its own copy of (part of) the pool."""
        return self.uses_memory and (self.pool_fraction < 1 or self.abstraction_weight > 0)

    def record(self) -> dict[str, Any]:
        """The condition as plain data (results, metadata, reports)."""
        return asdict(self)


def _insight(suffix: str, **settings: Any) -> Condition:
    return Condition(f"mtl-insight@{suffix}", ("insight",), **settings)


CONDITIONS: dict[str, Condition] = {
    "zero-shot": Condition("zero-shot"),
    **{f"mtl-{t.value}": Condition(f"mtl-{t.value}", (t.value,)) for t in MemoryType},
    "in-domain-insight": Condition("in-domain-insight", ("insight",), scope="own"),
    # the relevance gate: only memories at cosine >= 0.2 to the query (MiniLM) are given
    "mtl-insight-gated": Condition("mtl-insight-gated", ("insight",), min_similarity=0.2),
    "mtl-trajectory-gated": Condition("mtl-trajectory-gated", ("trajectory",), min_similarity=0.2),
}

SWEEPS: dict[str, list[Condition]] = {
    # pool size: 1/4, 2/4, 3/4 of the pool (three random subsets each), and the full pool
    "pool-size": [
        *[
            _insight(f"pool{f:g}-s{s}", pool_fraction=f, seed=s)
            for f in (0.25, 0.5, 0.75)
            for s in range(3)
        ],
        CONDITIONS["mtl-insight"],
    ],
    # number of source domains (two random draws each); capped by the domains present
    "source-domains": [
        _insight(f"sources{n}-s{s}", source_count=n, seed=s) for n in (1, 2, 3, 4) for s in range(2)
    ],
    # retrieval method: none, embedding of the task, plan rewrite, LLM rerank
    "retrieval": [
        CONDITIONS["zero-shot"],
        _insight("embedding", strategy="task"),
        _insight("plan", strategy="plan"),
        _insight("rerank", strategy="task", rerank=True),
    ],
    # abstraction-score re-weighting against plain similarity
    "abstraction": [CONDITIONS["mtl-insight"], _insight("abstraction", abstraction_weight=0.5)],
}


def resolve_conditions(names: str = "", sweep: str = "") -> list[Condition]:
    """Conditions by comma-separated name, then those of a sweep; unknown names are an error."""
    chosen: list[Condition] = []
    for name in filter(None, (n.strip() for n in names.split(","))):
        if name not in CONDITIONS:
            raise ValueError(f"unknown condition {name!r}; choose from {sorted(CONDITIONS)}")
        chosen.append(CONDITIONS[name])
    if sweep:
        if sweep not in SWEEPS:
            raise ValueError(f"unknown sweep {sweep!r}; choose from {sorted(SWEEPS)}")
        chosen += [c for c in SWEEPS[sweep] if c not in chosen]
    if not chosen:
        raise ValueError("no conditions: name some or choose a sweep")
    return chosen
