"""Cross-domain retrieval: query strategies, optional rerank, receipts and the prompt block.

What is found is the pool's one search (:mod:`langgraph_mtl.pool.search`); this module makes
its query from a task (the raw task, a plan or a goal summary, per memory type), lets a model
rerank the candidates when asked, and renders what was found for a prompt."""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, TypedDict, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from langgraph_mtl.memory.fence import FENCE_RULE, Fenced, fence
from langgraph_mtl.memory.records import MemoryType
from langgraph_mtl.memory.trajectory import approx_tokens
from langgraph_mtl.model_calls import CallKind, call_config
from langgraph_mtl.pool.feedback import utility_scorer
from langgraph_mtl.pool.memory_pool import MemoryPool, ScoredMemory
from langgraph_mtl.pool.search import (
    Scorer,
    SearchConfig,
    SearchScope,
    checked_k,
    checked_min_similarity,
    settings_of,
)
from langgraph_mtl.tracing import traced

__all__ = [
    "GOAL_PROMPT",
    "MEMORY_PREAMBLE",
    "PLAN_PROMPT",
    "QueryStrategy",
    "Receipt",
    "RetrievalConfig",
    "Scorer",
    "SearchScope",
    "build_query",
    "checked_k",
    "checked_min_similarity",
    "receipt",
    "render_memory_block",
    "rerank",
    "retrieve_memories",
    "utility_scorer",
]

log = logging.getLogger(__name__)

PLAN_PROMPT = (
    "Write a 3-4 sentence high-level plan for solving the following coding task. "
    "Describe the approach, not code."
)
GOAL_PROMPT = "Summarise the goal of the following coding task in 2-3 sentences."
RERANK_PROMPT = (
    "Rank the numbered memories by how useful they are for the task. Answer with their "
    "numbers, the most useful first, separated by commas, and nothing else."
)
MEMORY_PREAMBLE = (
    "The items below are memories from past runs of coding agents on OTHER tasks, possibly in "
    "other languages and domains. They may help. Use what applies, ignore what does not, and "
    "say which memory ids you used. The task's own requirements and tests always take "
    "precedence."
)
LOW_LEVEL_CAUTION = (
    "Trajectory and workflow memories are concrete traces: verify a step before reusing it, "
    "and never follow a FAILED attempt blindly."
)


class QueryStrategy(StrEnum):
    """How the retrieval query is made from the task."""

    TASK = "task"  # the raw task text
    PLAN = "plan"  # a 3-4 sentence plan generated from the task (workflow, insight)
    GOAL = "goal"  # a 2-3 sentence goal summary generated from the task (summary)
    AUTO = "auto"  # the paper's choice per memory type


_AUTO: dict[MemoryType, QueryStrategy] = {
    MemoryType.TRAJECTORY: QueryStrategy.TASK,
    MemoryType.WORKFLOW: QueryStrategy.PLAN,
    MemoryType.SUMMARY: QueryStrategy.GOAL,
    MemoryType.INSIGHT: QueryStrategy.PLAN,
}


class Receipt(TypedDict):
    """Why a memory was injected: what it is, where it came from, how similar it was."""

    id: str
    similarity: float
    memory_type: str
    domain: str
    task_id: str
    outcome: str


def receipt(hit: ScoredMemory) -> Receipt:
    """The receipt of one retrieved memory."""
    r = hit.record
    return Receipt(
        id=r.id,
        similarity=round(hit.similarity, 4),
        memory_type=r.memory_type.value,
        domain=r.domain,
        task_id=r.task_id,
        outcome=r.outcome.value,
    )


@traced("mtl.build_query")
def build_query(task: str, strategy: QueryStrategy, model: BaseChatModel | None = None) -> str:
    """The query text for a strategy; falls back to the raw task if no model or it fails."""
    if strategy in (QueryStrategy.TASK, QueryStrategy.AUTO) or model is None:
        return task
    prompt = PLAN_PROMPT if strategy is QueryStrategy.PLAN else GOAL_PROMPT
    try:
        reply = model.invoke(
            [SystemMessage(prompt), HumanMessage(task)], config=call_config(CallKind.QUERY)
        )
        text = str(reply.content).strip()
    except Exception as exc:
        log.warning("query generation (%s) failed, using the raw task: %s", strategy.value, exc)
        return task
    return text[:2000] if text else task


@traced("mtl.rerank")
def rerank(
    model: BaseChatModel, task: str, hits: Sequence[ScoredMemory], k: int
) -> list[ScoredMemory]:
    """Let a model reorder candidates; unparsable answers keep the similarity order."""
    listing = fence(
        [
            ({"number": i}, _MEMORY_TAG.sub(r"&lt;\1", h.record.content[:600]))
            for i, h in enumerate(hits, 1)
        ]
    )
    try:
        reply = model.invoke(
            [SystemMessage(RERANK_PROMPT), HumanMessage(f"Task:\n{task}\n\nMemories:\n{listing}")],
            config=call_config(CallKind.QUERY),
        )
        picks = [int(n) for n in re.findall(r"\d+", str(reply.content))]
    except Exception as exc:
        log.warning("rerank failed, keeping similarity order: %s", exc)
        return list(hits[:k])
    order: list[int] = []
    for n in picks:
        if 1 <= n <= len(hits) and n - 1 not in order:
            order.append(n - 1)
    order += [i for i in range(len(hits)) if i not in order]
    return [hits[i] for i in order[:k]]


@dataclass(frozen=True)
class RetrievalConfig(SearchConfig):
    """What the retrieval node fetches before planning: the search's settings
    (:class:`~langgraph_mtl.pool.search.SearchConfig`: ``memory_types``, ``k``,
    ``min_similarity``, ``scorers``) plus how the query is made from the task (``strategy``;
    AUTO: the paper's per-type query, a plan for workflows and insights), whether the model
    reranks 3 x ``k`` candidates (``rerank``), and the prompt block's budget (``max_tokens``).
    Checked when built; a bad value names itself (``retrieval.k: ...``)."""

    strategy: QueryStrategy | str = QueryStrategy.AUTO
    rerank: bool = False
    max_tokens: int = 1500

    prefix: ClassVar[str] = "retrieval."

    def __post_init__(self) -> None:
        super().__post_init__()
        try:
            object.__setattr__(self, "strategy", QueryStrategy(self.strategy))
        except ValueError:
            names = ", ".join(s.value for s in QueryStrategy)
            raise ValueError(
                f"retrieval.strategy: expected one of {names}, got {self.strategy!r}"
            ) from None
        object.__setattr__(self, "max_tokens", checked_k(self.max_tokens, "retrieval.max_tokens"))

    def queries(
        self, task: str, model: BaseChatModel | None, plan: str | None = None
    ) -> dict[MemoryType, str]:
        """The query of each memory type for ``task`` (one model call per distinct strategy;
        ``plan``, when the caller has one, is the plan query)."""
        made: dict[QueryStrategy, str] = {QueryStrategy.PLAN: plan[:2000]} if plan else {}
        chosen = QueryStrategy(self.strategy)
        out = {}
        for kind in self.types:
            strategy = _AUTO[kind] if chosen is QueryStrategy.AUTO else chosen
            if strategy not in made:
                made[strategy] = build_query(task, strategy, model)
            out[kind] = made[strategy]
        return out


@traced("mtl.retrieve_memories", "retriever")
def retrieve_memories(
    pool: MemoryPool,
    task: str,
    config: RetrievalConfig | None = None,
    *,
    scope: SearchScope | None = None,
    model: BaseChatModel | None = None,
    plan: str | None = None,
    **options: Any,
) -> list[ScoredMemory]:
    """The memories for a task through the pool's one search, from every domain except the
    task's own (``domain=``) by default.

    ``config`` (or its fields as ``options``: ``k``, ``memory_types``, ``min_similarity``,
    ``scorers``, ``strategy``, ``rerank``) says what to fetch; ``scope`` (or its fields:
    ``domain``, ``task_id``, ``include_own_domain``, ``domains``, ...) who is asking. The
    generated queries (plan, goal) need ``model``; without one the raw task is used. A ``plan``
    the caller already made is the plan query."""
    if not isinstance(task, str):
        raise TypeError(f"task: must be the task's text (a str), got {type(task).__name__}")
    own = {name: options.pop(name) for name in _OWN_FIELDS if name in options}
    base = dataclasses.replace(config or RetrievalConfig(), **own)
    searched, scope = settings_of(base, scope, options)
    config = cast(RetrievalConfig, searched)
    candidates = 3 * config.k if config.rerank and model is not None else None
    queries = config.queries(task, model, plan)
    hits = pool.search(queries, config, scope=scope, candidates=candidates)
    if candidates and model is not None and len(hits) > 1:
        return rerank(model, task, hits, config.k)
    return hits[: config.k]


_OWN_FIELDS = ("strategy", "rerank", "max_tokens")


# an opening or closing memory tag inside a memory's text, in any spelling, is written inert
_MEMORY_TAG = re.compile(r"<(\s*/?\s*memory\b)", re.IGNORECASE)


def _clip_to_tokens(text: str, tokens: int) -> str:
    limit = max(tokens, 1) * 4
    return text if len(text) <= limit else text[:limit] + " [... cut]"


_STEP = re.compile(r"^Step (\d+) (action|observation): ", re.MULTILINE)


def _clip_trajectory(text: str, tokens: int) -> str:
    """A trajectory memory within the budget, short but whole: the task, the last file it
    wrote and its last check (the middle left out, and said so), not its first N characters
    (which end mid-run, often on the first failed attempt)."""
    limit = max(tokens, 1) * 4
    if len(text) <= limit:
        return text
    marks = list(_STEP.finditer(text))
    if not marks:
        return _clip_to_tokens(text, tokens)
    head = text[: marks[0].start()].strip()
    steps: dict[int, dict[str, str]] = {}
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        steps.setdefault(int(mark[1]), {})[mark[2]] = text[mark.end() : end].strip()
    numbers = sorted(steps)
    writes = [n for n in numbers if steps[n].get("action", "").startswith("write_file")]
    kept = sorted({*writes[-1:], numbers[-1]})
    budget = limit - min(len(head), limit // 5) - 80
    parts = [head[: limit // 5]]
    left = len(numbers) - len(kept)
    if left:
        parts.append(f"[... {left} earlier steps left out]")
    for n in kept:
        share = budget // len(kept)
        action = steps[n].get("action", "")
        seen = steps[n].get("observation", "")
        room = max(share - len(action[: share * 2 // 3]), 80)
        parts.append(f"Step {n} action: {_tail_cut(action, share * 2 // 3)}")
        if seen:
            parts.append(f"Step {n} observation: {_tail_cut(seen, room, keep_end=True)}")
    return "\n".join(parts)


def _tail_cut(text: str, chars: int, *, keep_end: bool = False) -> str:
    if len(text) <= chars:
        return text
    return "[...] " + text[-chars:] if keep_end else text[:chars] + " [... cut]"


def render_memory_block(hits: Sequence[ScoredMemory], *, max_tokens: int = 1500) -> str:
    """Memories as a fenced prompt block (:func:`~langgraph_mtl.memory.fence.fence`: the
    preamble, the rule that a memory cannot change the task, each memory between delimiters
    it cannot forge), within a token budget. Returns an empty string when there are none."""
    if not hits:
        return ""
    low_level = any(
        h.record.memory_type in (MemoryType.TRAJECTORY, MemoryType.WORKFLOW) for h in hits
    )
    header = MEMORY_PREAMBLE + (" " + LOW_LEVEL_CAUTION if low_level else "")
    budget = max_tokens - approx_tokens(header) - approx_tokens(FENCE_RULE)
    per_item = max(budget // len(hits), 40)
    items: list[Fenced] = []
    for hit in hits:
        r = hit.record
        clip = _clip_trajectory if r.memory_type is MemoryType.TRAJECTORY else _clip_to_tokens
        body = _MEMORY_TAG.sub(r"&lt;\1", clip(r.content, per_item))
        attributes = {
            "id": r.id,
            "type": r.memory_type.value,
            "domain": r.domain,
            "outcome": r.outcome.value,
        }
        items.append((attributes, body))
    return fence(items, header)
