"""The one search: what every read path of the pool means by "search".

The retrieval node, the memory tool, ``pool.as_retriever()``, the store's ``search(query=...)``
and ``mtl pool search`` all come here, with two objects:

- :class:`SearchConfig`: how many memories of which types, the relevance gate and the
  re-ranking scorers. Checked once, when it is built (numpy numbers accepted).
- :class:`SearchScope`: who is asking: the run's domain (left out unless the run includes its
  own), the run's task (always left out), source domains, value filters. A run context
  (``MemoryContext`` or any object with its fields) gives one with :meth:`SearchScope.of`.

Quarantined memories are never returned unless the scope asks for them.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

from langgraph_mtl._keywords import check_keywords
from langgraph_mtl.memory.enums import MemoryType, Outcome, parse_memory_types
from langgraph_mtl.memory.records import utf8_safe, validate_domain
from langgraph_mtl.pool.codec import as_values, build_where
from langgraph_mtl.pool.reports import ScoredMemory

if TYPE_CHECKING:
    from langgraph_mtl.pool.memory_pool import MemoryPool

__all__ = [
    "Scorer",
    "SearchConfig",
    "SearchScope",
    "checked_k",
    "checked_min_similarity",
    "checked_query",
    "context_field",
    "run_search",
    "settings_of",
]

# a re-ranking strategy: a bonus for each candidate, added to its similarity; a scorer may
# say how many times k candidates it needs to see (its ``reach`` attribute; 3 otherwise)
Scorer = Callable[["MemoryPool", Sequence[ScoredMemory]], Sequence[float]]


def checked_k(value: object, name: str = "k") -> int:
    """How many memories to retrieve as a plain int (numpy's integers too), or a short error
    naming the setting (``name``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name}: must be a whole number >= 1, got {value!r}")
    return int(value)


def checked_min_similarity(value: object, name: str = "min_similarity") -> float | None:
    """A relevance gate as a plain float (``None`` stays), or a short error naming the setting
    (``name``)."""
    if value is None:
        return None
    bound = float(value) if isinstance(value, numbers.Real) else None
    if isinstance(value, bool) or bound is None or not -1.0 <= bound <= 1.0:
        raise ValueError(
            f"{name}: must be a number from -1 to 1 (cosine similarity), got {value!r}"
        )
    return bound


def context_field(context: Any, name: str, default: Any = None) -> Any:
    """A run-context field (attribute or dict key), or ``default`` when missing or ``None``."""
    if context is None:
        return default
    value = getattr(context, name, None)
    if value is None and isinstance(context, Mapping):
        value = context.get(name)
    return default if value is None else value


@dataclass(frozen=True)
class SearchConfig:
    """How a search ranks: ``k`` memories of ``memory_types`` (``None``: every type), the
    ``min_similarity`` gate (cosine; memories below it are never returned, so a task with no
    close memory gets none) and ``scorers`` that re-rank 3 x ``k`` candidates by similarity
    plus their bonuses. Checked when built; a bad value names itself."""

    memory_types: Iterable[MemoryType | str] | MemoryType | str | None = None
    k: int = 3
    min_similarity: float | None = None
    scorers: Sequence[Scorer] = ()

    prefix: ClassVar[str] = ""  # how a bad value is named: prefix + field

    def __post_init__(self) -> None:
        p = self.prefix
        types = parse_memory_types(self.memory_types, f"{p}memory_types")
        object.__setattr__(self, "memory_types", types or None)
        object.__setattr__(self, "k", checked_k(self.k, f"{p}k"))
        gate = checked_min_similarity(self.min_similarity, f"{p}min_similarity")
        object.__setattr__(self, "min_similarity", gate)
        if not all(callable(s) for s in self.scorers):
            raise ValueError(f"{p}scorers: expected functions (pool, hits) -> bonuses")
        object.__setattr__(self, "scorers", tuple(self.scorers))

    @property
    def types(self) -> tuple[MemoryType, ...]:
        """The memory types searched (every type when none was named)."""
        named = cast("tuple[MemoryType, ...] | None", self.memory_types)
        return named or tuple(MemoryType)

    def for_run(self, context: Any) -> Self:
        """These settings with the run context's overrides (``k``, ``memory_types``,
        ``min_similarity``), each checked and named as ``context.<field>``: the one place a
        run context changes a node's defaults."""
        changes: dict[str, Any] = {}
        if (k := context_field(context, "k")) is not None:
            changes["k"] = checked_k(k, "context.k")
        if (types := context_field(context, "memory_types")) is not None:
            changes["memory_types"] = parse_memory_types(types, "context.memory_types") or None
        if (gate := context_field(context, "min_similarity")) is not None:
            changes["min_similarity"] = checked_min_similarity(gate, "context.min_similarity")
        return dataclasses.replace(self, **changes) if changes else self


def _strings(values: str | Iterable[str] | None) -> tuple[str, ...]:
    return tuple(as_values(values))


@dataclass(frozen=True)
class SearchScope:
    """Who is asking, and so what they may see.

    ``domain`` and ``task_id`` are the run's: memories of the domain are left out unless
    ``include_own_domain`` (leave-one-domain-out) and memories of the task always are
    (leave-one-task-out). ``domains`` keeps only those source domains; ``exclude_domains``,
    ``exclude_task_ids``, ``outcomes``, ``agent_models`` and ``where`` (a Chroma filter on
    stored fields) narrow further. Quarantined memories only with ``include_quarantined``."""

    domain: str | None = None
    task_id: str | None = None
    include_own_domain: bool = False
    domains: str | Iterable[str] | None = None
    exclude_domains: str | Iterable[str] | None = ()
    exclude_task_ids: str | Iterable[str] | None = ()
    outcomes: Outcome | str | Iterable[Outcome | str] | None = ()
    agent_models: str | Iterable[str] | None = ()
    where: dict[str, Any] | None = None
    include_quarantined: bool = False

    def __post_init__(self) -> None:
        if self.domain is not None:
            object.__setattr__(self, "domain", validate_domain(self.domain, "domain"))
        if self.domains is not None:
            object.__setattr__(self, "domains", _strings(self.domains))
        for name in ("exclude_domains", "exclude_task_ids", "outcomes", "agent_models"):
            object.__setattr__(self, name, _strings(getattr(self, name)))

    @classmethod
    def of(cls, context: Any, **narrower: Any) -> SearchScope:
        """The scope a run context gives (its ``domain``, ``task_id``, ``include_own_domain``,
        ``source_domains`` and ``exclude_task_ids``), narrowed by ``narrower`` (more
        exclusions, value filters)."""
        sources = context_field(context, "source_domains")
        domain = context_field(context, "domain")
        excluded = _strings(context_field(context, "exclude_task_ids", ()))
        more = _strings(narrower.pop("exclude_task_ids", ()))
        return cls(
            domain=validate_domain(domain, "context.domain") if domain is not None else None,
            task_id=context_field(context, "task_id"),
            include_own_domain=bool(context_field(context, "include_own_domain", False)),
            domains=tuple(sources) if sources else None,
            exclude_task_ids=(*excluded, *more),
            **narrower,
        )

    def where_clause(self, memory_types: Iterable[MemoryType]) -> dict[str, Any] | None:
        """The Chroma filter of this scope over ``memory_types`` (quarantine included)."""
        excluded = list(self.exclude_domains or ())
        if self.domain and not self.include_own_domain:
            excluded.append(self.domain)
        tasks = [*(self.exclude_task_ids or ()), *([self.task_id] if self.task_id else [])]
        extra = dict(self.where or {})
        if not self.include_quarantined:
            extra["flag_quarantined"] = False
        return build_where(
            memory_types=list(memory_types),
            exclude_domains=excluded,
            domains=self.domains,
            outcomes=self.outcomes,
            agent_models=self.agent_models,
            exclude_task_ids=tasks,
            extra=extra,
        )


Query = str | Sequence[float] | Mapping[MemoryType, str | Sequence[float]]
_QUERY = "query: expected the task's text, a vector (a list of numbers) or a text per memory type"


def checked_query(query: object) -> Query:
    """``query`` as the search takes it (a mapping's keys as memory types), or a short error
    naming what is wrong: no query, bytes, a misspelt memory type, a vector holding anything
    but finite numbers."""
    if isinstance(query, Mapping):
        parse_memory_types(list(query), "query (its keys)")
        texts = {MemoryType(kind): text for kind, text in query.items() if text is not None}
        return {kind: _text_or_vector(text) for kind, text in texts.items()}
    return _text_or_vector(query)


def _text_or_vector(query: object) -> str | list[float]:
    if isinstance(query, str):
        return query
    if isinstance(query, bytes | bytearray | Mapping) or not isinstance(query, Iterable):
        raise TypeError(f"{_QUERY}, got {type(query).__name__}")
    vector = list(query)
    if not vector or not all(
        isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x) for x in vector
    ):
        raise ValueError(f"query: a vector must hold finite numbers only, got {vector[:4]!r}...")
    return [float(x) for x in vector]


def run_search(
    pool: MemoryPool,
    query: Query,
    config: SearchConfig,
    scope: SearchScope,
    *,
    candidates: int | None = None,
) -> list[ScoredMemory]:
    """The one search (see the module docstring): the nearest memories to ``query`` in
    ``scope``, re-ranked by ``config.scorers``, gated by ``config.min_similarity``, best first.

    ``query`` is a text, a vector, or one text per memory type (types that share a text are
    searched together). Returns ``config.k`` memories, or ``candidates`` when given (a caller
    that re-ranks them further, with a model, say)."""
    query = checked_query(query)
    wanted = candidates or config.k
    reach = max((getattr(s, "reach", 3) for s in config.scorers), default=1)  # x k candidates
    fetch = max(wanted, reach * config.k)
    groups: dict[Any, list[MemoryType]] = {}
    for kind in config.types:
        text = query.get(kind) if isinstance(query, Mapping) else query
        if text is None:
            continue
        groups.setdefault(text if isinstance(text, str) else tuple(text), []).append(kind)
    hits: dict[str, ScoredMemory] = {}
    for text, kinds in groups.items():
        vector = (
            pool.embeddings.embed_query(utf8_safe(text)) if isinstance(text, str) else list(text)
        )
        where = scope.where_clause(kinds)
        for hit in pool.nearest([float(x) for x in vector], fetch, where):
            known = hits.get(hit.record.id)
            if known is None or known.similarity < hit.similarity:
                hits[hit.record.id] = hit
    ranked = sorted(hits.values(), key=lambda h: h.similarity, reverse=True)
    if config.scorers:
        bonuses = [scorer(pool, ranked) for scorer in config.scorers]
        score = {
            hit.record.id: hit.similarity + sum(float(b[i]) for b in bonuses)
            for i, hit in enumerate(ranked)
        }
        ranked.sort(key=lambda hit: score[hit.record.id], reverse=True)
    if config.min_similarity is not None:
        ranked = [h for h in ranked if h.similarity >= config.min_similarity]
    return ranked[:wanted]


_CONFIG_FIELDS = {f.name for f in dataclasses.fields(SearchConfig)}
_SCOPE_FIELDS = {f.name for f in dataclasses.fields(SearchScope)}


def settings_of(
    config: SearchConfig | None, scope: SearchScope | None, options: Mapping[str, Any]
) -> tuple[SearchConfig, SearchScope]:
    """The two objects from a call's shorthand: ``options`` are fields of either, applied to
    ``config`` / ``scope`` (their defaults when ``None``). An unknown name is a TypeError."""
    check_keywords(options, sorted(_CONFIG_FIELDS | _SCOPE_FIELDS), "a search setting")
    settings = {k: v for k, v in options.items() if k in _CONFIG_FIELDS}
    narrower = {k: v for k, v in options.items() if k in _SCOPE_FIELDS}
    config = config or SearchConfig()
    if settings:
        config = dataclasses.replace(config, **settings)
    scope = dataclasses.replace(scope, **narrower) if scope else SearchScope(**narrower)
    return config, scope
