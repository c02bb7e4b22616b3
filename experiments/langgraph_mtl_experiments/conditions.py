"""Experimental conditions and the sweeps built from them.

A condition says what the agent may retrieve: nothing (zero-shot), other domains' memories
of some types (MTL, leave-one-domain-out), or its own domain's (the in-domain baseline); and
how: the query strategy, LLM reranking, a seeded share of the pool, a seeded number of source
domains, abstraction-score re-weighting; and where the memories go (the calls that write a
file or an edit, or only the plan and the act loop).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
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
    max_share: float | None = None  # no memory given in more than this share of the attempts
    # "" searches; "placebo" gives k memories drawn at random (seeded) from the same pool the
    # search would use; "file" gives each task the memories given_file lists for it
    given: Literal["", "placebo", "file"] = ""
    given_file: str = ""
    pool_from: str = ""  # a pool snapshot (JSONL) this condition runs on instead of the run's
    in_writes: bool = True  # the memories also enter the calls that write a file or an edit

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
        if self.max_share is not None and not 0 < self.max_share <= 1:
            raise ValueError(f"{self.name}: max_share must be in (0, 1]")
        if self.given not in ("", "placebo", "file"):
            raise ValueError(f"{self.name}: given must be '', 'placebo' or 'file'")
        if (self.given == "file") != bool(self.given_file):
            raise ValueError(f"{self.name}: given='file' goes with given_file, and only it")

    @property
    def uses_memory(self) -> bool:
        return bool(self.memory_types)

    @property
    def needs_own_pool(self) -> bool:
        """Whether the condition runs on its own copy of (part of) the pool."""
        changed = self.pool_fraction < 1 or self.abstraction_weight > 0 or bool(self.pool_from)
        return self.uses_memory and changed

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
    # the controls: memories drawn at random from the same pool, in the same format and budget
    "placebo-insight": Condition("placebo-insight", ("insight",), given="placebo"),
    # insights searched with the problem's own text, no insight in more than 10% of attempts
    "mtl-insight-content": Condition(
        "mtl-insight-content", ("insight",), strategy="task", max_share=0.1
    ),
    # the same, kept out of the calls that write a file or an edit (the ablation of that channel)
    "mtl-insight-content-no-writes": Condition(
        "mtl-insight-content-no-writes",
        ("insight",),
        strategy="task",
        max_share=0.1,
        in_writes=False,
    ),
    # the insights of the powered 1.5B run as they were written (blind, long, task-bound),
    # searched with a plan made from the task, as that run searched them (run from the
    # repository's root: the snapshot is a committed file)
    "mtl-insight-old": Condition(
        "mtl-insight-old",
        ("insight",),
        strategy="plan",
        pool_from="experiments/results/powered-1.5b/snapshots/mtl-insight.jsonl",
    ),
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


def fixed_condition(path: str) -> Condition:
    """The condition that gives each task the memories a file lists for it (``fixed:PATH``; a
    line per task: ``{"task_id": ..., "memories": [records or {"content", "domain", ...}]}``)."""
    if not Path(path).is_file():
        raise ValueError(
            f"fixed:{path}: no such file; give a JSON-lines file of memories per task "
            "(`mtl experiment twins OUT` writes one)"
        )
    stem = path.rsplit("/", 1)[-1].removesuffix(".jsonl")
    return Condition(f"fixed-{stem}", ("insight",), given="file", given_file=path)


def resolve_conditions(names: str = "", sweep: str = "") -> list[Condition]:
    """Conditions by comma-separated name (``fixed:PATH`` for a file of given memories), then
    those of a sweep; unknown names are an error."""
    chosen: list[Condition] = []
    for name in filter(None, (n.strip() for n in names.split(","))):
        if name.startswith("fixed:"):
            chosen.append(fixed_condition(name.removeprefix("fixed:")))
            continue
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
