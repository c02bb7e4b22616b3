"""The two drop-in LangGraph nodes: retrieve memories before planning, write one after the run.

Example::

    from dataclasses import dataclass
from functools import partial
    from langgraph.graph import StateGraph, START, END
    from langgraph_mtl import (MemoryContext, MemoryState, open_pool,
                               create_memory_retrieval_node, create_memory_writer_node)

    class State(MemoryState):
        answer: str

    pool = open_pool()
    builder = StateGraph(State, context_schema=MemoryContext)
    builder.add_node(create_memory_retrieval_node(pool))
    builder.add_node("solve", solve)                      # reads state["memory_prompt"]
    builder.add_node(create_memory_writer_node(pool, model=model, memory_type="insight"))
    builder.add_edge(START, "retrieve_memories")
    builder.add_edge("retrieve_memories", "solve")
    builder.add_edge("solve", "write_memory")
    builder.add_edge("write_memory", END)
    graph = builder.compile()
    graph.invoke({"task": "..."}, context=MemoryContext(domain="python", task_id="t1"))
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel

from langgraph_mtl.memory.enums import parse_memory_types
from langgraph_mtl.memory.records import MemoryRecord, MemoryType, validate_domain
from langgraph_mtl.memory.trajectory import (
    Step,
    coerce_steps,
    run_digest,
    steps_from_messages,
    task_from_messages,
)
from langgraph_mtl.models import model_label, resolve_chat_model
from langgraph_mtl.nodes.base import (
    MemoryContext,
    MemoryNode,
    MemoryState,
    PoolSource,
    context_value,
    pool_getter,
)
from langgraph_mtl.nodes.outbox import Outbox
from langgraph_mtl.nodes.review import human_review
from langgraph_mtl.pool.feedback import record_feedback
from langgraph_mtl.pool.location import PoolLocationError
from langgraph_mtl.pool.memory_pool import EmbedderMismatchError, MemoryPool
from langgraph_mtl.tracing import configure_tracing
from langgraph_mtl.transfer.abstraction import FinishedRun, abstract_run, decide_outcome, redact_run
from langgraph_mtl.transfer.retrieval import (
    QueryStrategy,
    Scorer,
    checked_k,
    checked_min_similarity,
    receipt,
    render_memory_block,
    retrieve_memories,
)

__all__ = [
    "MemoryContext",
    "MemoryNode",
    "MemoryState",
    "create_memory_retrieval_node",
    "create_memory_writer_node",
]

log = logging.getLogger(__name__)

# errors that a retry will not fix: reported as "misconfigured", not as an outage
_CONFIG_ERRORS = (PoolLocationError, EmbedderMismatchError)


def _failure(exc: Exception) -> str:
    """A node's status for a failure of the memory layer: a setting to fix, or an outage."""
    kind = "misconfigured" if isinstance(exc, _CONFIG_ERRORS) else "unavailable"
    return f"{kind}: {type(exc).__name__}: {str(exc)[:200]}"


@dataclass(frozen=True)
class _RunSettings:
    domain: str | None
    k: int
    memory_types: list[MemoryType]
    min_similarity: float | None


def _run_settings(
    runtime: Any, k: int, default_types: list[MemoryType], min_similarity: float | None
) -> _RunSettings:
    """This run's retrieval settings, from the context or the node's defaults. Raises
    ValueError naming the context field that is wrong."""
    run_k = checked_k(context_value(runtime, "k", k), "context.k")
    raw_types = context_value(runtime, "memory_types", None)
    types = list(parse_memory_types(raw_types, "context.memory_types")) or default_types
    gate = context_value(runtime, "min_similarity", min_similarity)
    domain = context_value(runtime, "domain", None)
    return _RunSettings(
        validate_domain(domain, "context.domain") if domain else None,
        run_k,
        types,
        checked_min_similarity(gate, "context.min_similarity"),
    )


def _task(state: dict[str, Any], task_key: str, messages_key: str) -> str:
    task = state.get(task_key)
    if isinstance(task, str) and task.strip():
        return task
    return task_from_messages(state.get(messages_key) or [])


def create_memory_retrieval_node(
    pool: PoolSource,
    *,
    model: str | BaseChatModel | None = None,
    k: int = 3,
    memory_types: Iterable[MemoryType | str] | MemoryType | str | None = None,
    strategy: QueryStrategy | str = QueryStrategy.AUTO,
    rerank: bool = False,
    max_tokens: int = 1500,
    min_similarity: float | None = None,
    scorers: Sequence[Scorer] = (),
    task_key: str = "task",
    messages_key: str = "messages",
    output_key: str = "memory_prompt",
    receipts_key: str = "memory_receipts",
    status_key: str = "memory_status",
    plan_key: str | None = None,
    name: str = "retrieve_memories",
) -> MemoryNode:
    """A node that puts cross-domain memories for the task into state, before planning.

    Leave-one-domain-out: memories of ``context.domain`` are excluded unless
    ``context.include_own_domain``. The node returns the rendered block (``output_key``), one
    receipt per memory (``receipts_key``) and a status (``status_key``): ``"ok"``,
    ``"disabled"``, ``"no task"``, ``"unavailable: <reason>"`` (an outage: a later run may
    succeed) or ``"misconfigured: <what to fix>"`` (a wrong run context, location or embedder).
    It never raises on a pool or model failure: the run goes on without memory. ``pool`` may
    be a location (opened on first use, retried while it fails). With ``plan_key``, a plan already in
    state is the query for plan-based memory types (no second planning call).
    ``min_similarity`` (or ``context.min_similarity``) is a relevance gate: memories less
    similar to the query are not injected, so a task with no close memory runs without any.
    ``scorers`` re-rank candidates (e.g. :func:`~langgraph_mtl.transfer.retrieval.utility_scorer`).
    """
    checked_k(k)
    if max_tokens < 1:
        raise ValueError(f"max_tokens: must be >= 1, got {max_tokens}")
    checked_min_similarity(min_similarity)
    configure_tracing()
    get_pool = pool_getter(pool)
    chat = resolve_chat_model(model) if model is not None else None
    default_types = list(parse_memory_types(memory_types, "memory_types")) or list(MemoryType)
    query_strategy = QueryStrategy(strategy)

    def retrieve(state: dict[str, Any], runtime: Any) -> dict[str, Any]:
        empty = {output_key: "", receipts_key: []}
        if not context_value(runtime, "retrieve", True):
            return {**empty, status_key: "disabled"}
        task = _task(state, task_key, messages_key)
        if not task.strip():
            return {**empty, status_key: "no task"}
        try:
            run = _run_settings(runtime, k, default_types, min_similarity)
        except ValueError as exc:
            log.error("memory retrieval skipped, the run context is wrong: %s", exc)
            return {**empty, status_key: f"misconfigured: {exc}"}
        try:
            hits = retrieve_memories(
                get_pool(),
                task,
                domain=run.domain,
                k=run.k,
                memory_types=run.memory_types,
                strategy=query_strategy,
                model=chat,
                use_rerank=rerank,
                include_own_domain=bool(context_value(runtime, "include_own_domain", False)),
                source_domains=context_value(runtime, "source_domains", None),
                scorers=scorers,
                min_similarity=run.min_similarity,
                exclude_task_ids=[t] if (t := context_value(runtime, "task_id", None)) else None,
                plan=(state.get(plan_key) or None) if plan_key else None,
            )
        except Exception as exc:
            log.warning("memory retrieval failed, continuing without memory: %s", exc)
            return {**empty, status_key: _failure(exc)}
        return {
            output_key: render_memory_block(hits, max_tokens=max_tokens),
            receipts_key: [receipt(h) for h in hits],
            status_key: "ok",
        }

    return MemoryNode(retrieve, name)


def create_memory_writer_node(
    pool: PoolSource,
    *,
    model: str | BaseChatModel | None = None,
    memory_type: Iterable[MemoryType | str] | MemoryType | str = MemoryType.INSIGHT,
    judge: str | BaseChatModel | None = None,
    outbox: Outbox | str | None = None,
    agent_model: str | None = None,
    review: bool = False,
    task_key: str = "task",
    messages_key: str = "messages",
    trajectory_key: str = "trajectory",
    verified_key: str = "verified",
    receipts_key: str = "memory_receipts",
    written_key: str = "memory_written",
    status_key: str = "memory_write_status",
    name: str = "write_memory",
) -> MemoryNode:
    """A post-run node that abstracts the finished run into memories and writes them.

    The outcome is the verifier's (``state[verified_key]``) when present, else the ``judge``
    model's strict PASS/FAIL, else unknown. Safe with ``add_node(..., defer=True)``. On a pool
    or model failure nothing raises: what could not be written goes to the outbox (delivered by
    a later write or :meth:`Outbox.flush`) and ``status_key`` says so. The memories the run was
    given (``receipts_key``) get utility feedback: helped if it passed, hurt if it failed.

    ``review=True`` asks a person before anything is shared: the node calls ``interrupt()``
    with the abstracted (redacted) memories and waits for ``Command(resume=...)`` with
    ``{"action": "write"}``, ``{"action": "edit", "memories": [{"id": ..., "content": ...}]}``
    (only the listed memories are written, with the edited fields) or ``{"action": "drop"}``.
    What is written is marked ``judged_by="human"``. Needs a checkpointer.
    """
    configure_tracing()
    get_pool = pool_getter(pool)
    kinds = parse_memory_types(memory_type, "memory_type")
    if not kinds:
        raise ValueError("memory_type: give at least one memory type")
    chat = resolve_chat_model(model) if model is not None else None
    if chat is None and any(t is not MemoryType.TRAJECTORY for t in kinds):
        raise ValueError("model: needed to abstract workflow, summary or insight memories")
    judge_model = resolve_chat_model(judge, argument="judge") if judge is not None else None
    box = outbox if isinstance(outbox, Outbox) else Outbox(outbox)
    producer = agent_model or (model_label(chat) if chat is not None else "unknown")

    def write(state: dict[str, Any], runtime: Any) -> dict[str, Any]:
        if not context_value(runtime, "write", True):
            return {written_key: [], status_key: "skipped: writing disabled"}
        domain = context_value(runtime, "domain", None)
        task = _task(state, task_key, messages_key)
        if not domain or not task.strip():
            log.warning("memory not written: the run has no domain in context or no task")
            return {written_key: [], status_key: "skipped: no domain or no task"}
        try:
            steps = _steps(state, trajectory_key, messages_key)
        except ValueError as exc:
            return {written_key: [], status_key: f"skipped: {exc}"}
        verified = state.get(verified_key)
        run = FinishedRun(
            task=task,
            steps=steps,
            domain=domain,
            task_id=context_value(runtime, "task_id", None) or run_digest(task, steps)[:12],
            verified=verified if isinstance(verified, bool) else None,
            agent_model=producer,
        )
        run, secrets = redact_run(run)  # the boundary: nothing below sees a raw secret
        used = [r["id"] for r in state.get(receipts_key) or [] if isinstance(r, dict) and "id" in r]
        return _write_run(
            run,
            secrets,
            used,
            kinds,
            chat,
            judge_model,
            get_pool,
            box,
            written_key,
            status_key,
            review,
        )

    return MemoryNode(write, name)


def _steps(state: dict[str, Any], trajectory_key: str, messages_key: str) -> list[Step]:
    raw = state.get(trajectory_key)
    if raw:
        return coerce_steps(raw)
    return steps_from_messages(state.get(messages_key) or [])


def _address(get_pool: Callable[[], MemoryPool]) -> str | None:
    """The address of the node's pool, or None while it cannot be opened."""
    try:
        return get_pool().address
    except Exception:
        return None


def _write_run(
    run: FinishedRun,
    secrets: int,
    used: list[str],
    kinds: Sequence[MemoryType],
    model: BaseChatModel | None,
    judge: BaseChatModel | None,
    get_pool: Callable[[], MemoryPool],
    box: Outbox,
    written_key: str,
    status_key: str,
    review: bool = False,
) -> dict[str, Any]:
    problems: list[str] = []
    records: list[MemoryRecord] = []
    outcome = decide_outcome(run, judge)
    failed: list[tuple[MemoryType, Exception]] = []
    for kind in kinds:
        try:
            record = abstract_run(run, kind, model=model, outcome=outcome)
            if secrets:
                counted = int(record.flags.get("redacted", 0)) + secrets
                record = record.model_copy(update={"flags": {**record.flags, "redacted": counted}})
            records.append(record)
        except Exception as exc:
            log.warning("abstraction to %s failed; run kept in the outbox: %s", kind.value, exc)
            failed.append((kind, exc))
            problems.append(f"{kind.value} abstraction failed")
    if failed:
        target = _address(get_pool)  # one attempt to reach the pool, whatever failed
        for kind, error in failed:
            box.add_run(run, kind.value, reason=str(error)[:300], outcome=outcome, pool=target)
    if records and review:
        try:
            records = human_review(records)
        except ValueError as exc:
            return {written_key: [], status_key: f"review refused: {exc}; nothing written"}
        if not records:
            return {written_key: [], status_key: "dropped by review"}
    written: list[str] = []
    if records:
        pool: MemoryPool | None = None
        try:
            pool = get_pool()
            report = pool.upsert(records)
            written = report.ids
            if report.quarantined:
                problems.append(f"{len(report.quarantined)} quarantined")
            box.flush(pool, model=model)
        except Exception as exc:
            log.warning(
                "memory pool unavailable; %d memories kept in the outbox: %s", len(records), exc
            )
            target = pool.address if pool is not None else None  # opened, then failed
            for record in records:
                box.add_record(record, reason=str(exc)[:300], pool=target)
            state = "misconfigured" if isinstance(exc, _CONFIG_ERRORS) else "unavailable"
            problems.append(f"pool {state} ({type(exc).__name__}), queued {len(records)}")
    if used:
        try:
            record_feedback(get_pool(), used, run_id=run.digest, passed=run.verified)
        except Exception as exc:
            log.warning("utility feedback not recorded: %s", exc)
    status = "ok" if not problems else "queued: " + "; ".join(problems)
    return {written_key: written, status_key: status}
