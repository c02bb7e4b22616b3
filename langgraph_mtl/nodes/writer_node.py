"""The post-run node: the finished run abstracted into memories and written to the pool.

Nothing raises into the agent's run: a model or pool failure leaves the run in the outbox
(delivered by a later write or ``mtl pool flush``) and the status says why.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel

from langgraph_mtl._keywords import one_config
from langgraph_mtl.memory.enums import MemoryType, parse_memory_types
from langgraph_mtl.memory.records import MemoryRecord
from langgraph_mtl.memory.trajectory import Step, coerce_steps, run_digest, steps_from_messages
from langgraph_mtl.models import model_label, resolve_chat_model
from langgraph_mtl.nodes.base import (
    MemoryNode,
    PoolSource,
    context_value,
    failure_status,
    listed,
    pool_getter,
    task_of,
)
from langgraph_mtl.nodes.outbox import Outbox
from langgraph_mtl.nodes.review import human_review
from langgraph_mtl.pool.feedback import record_feedback
from langgraph_mtl.pool.memory_pool import MemoryPool
from langgraph_mtl.tracing import configure_tracing
from langgraph_mtl.transfer.abstraction import (
    FinishedRun,
    MemoryRejected,
    abstract_run,
    decide_outcome,
    redact_run,
)

__all__ = ["WriterConfig", "create_memory_writer_node"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WriterConfig:
    """What the writer node stores after the run: the ``memory_types`` the run is abstracted
    into, by ``model`` (needed for every type but trajectory); ``judge`` decides the outcome
    when the run has no verifier; ``outbox`` keeps what the pool could not take;
    ``agent_model`` names the model that ran (default: ``model``'s name); ``review`` asks a
    person first. Checked when built; a bad value names itself (``writer.memory_types: ...``).
    """

    memory_types: Iterable[MemoryType | str] | MemoryType | str = (MemoryType.INSIGHT,)
    model: str | BaseChatModel | None = None
    judge: str | BaseChatModel | None = None
    outbox: Outbox | str | os.PathLike[str] | None = None
    agent_model: str | None = None
    review: bool = False

    def __post_init__(self) -> None:
        types = parse_memory_types(self.memory_types, "writer.memory_types")
        if not types:
            raise ValueError("writer.memory_types: name at least one memory type")
        object.__setattr__(self, "memory_types", types)
        if self.outbox is not None and not isinstance(self.outbox, Outbox | str | os.PathLike):
            raise ValueError(
                f"writer.outbox: expected an Outbox or a file path, got {self.outbox!r:.60}"
            )

    @property
    def types(self) -> tuple[MemoryType, ...]:
        return tuple(MemoryType(t) for t in self.memory_types)


@dataclass(frozen=True)
class _Keys:
    """The state keys the writer reads and writes."""

    task: str
    messages: str
    trajectory: str
    verified: str
    verification: str
    query: str
    files: str
    receipts: str
    written: str
    status: str


def create_memory_writer_node(
    pool: PoolSource,
    config: WriterConfig | None = None,
    *,
    task_key: str = "task",
    messages_key: str = "messages",
    trajectory_key: str = "trajectory",
    verified_key: str = "verified",
    verification_key: str = "verification",
    query_key: str = "memory_query",
    files_key: str = "changed_files",
    receipts_key: str = "memory_receipts",
    written_key: str = "memory_written",
    status_key: str = "memory_write_status",
    name: str = "write_memory",
    **settings: Any,
) -> MemoryNode:
    """A post-run node that abstracts the finished run into memories and writes them.

    ``config`` (:class:`WriterConfig`, or its fields as keywords: ``memory_types="insight",
    model=...``) says what to write. The outcome is the verifier's (``state[verified_key]``)
    when present, else the ``judge`` model's strict PASS/FAIL, else unknown; the verifier's
    report (``state[verification_key]``) and the changed files as they ended
    (``state[files_key]``, path -> text) are given to the abstracting model, so a failure's
    lesson names the cause the report shows; ``state[query_key]`` (the problem's own text) is
    a trajectory memory's retrieval key when there. Safe with ``add_node(..., defer=True)``. On a
    pool or model failure nothing raises: what could not be written goes to the outbox and
    ``status_key`` says so (``"queued: ..."``); an insight that breaks the insight rules twice
    is dropped, not queued (``"insight dropped by rule: ..."``). The memories the run was given
    (``receipts_key``) get utility feedback: helped if it passed, hurt if it failed.

    ``review=True`` asks a person before anything is shared: the node calls ``interrupt()``
    with the abstracted (redacted) memories and waits for ``Command(resume=...)`` with
    ``{"action": "write"}``, ``{"action": "edit", "memories": [{"id": ..., "content": ...}]}``
    (only the listed memories are written, with the edited fields) or ``{"action": "drop"}``.
    What is written is marked ``judged_by="human"``. Needs a checkpointer.
    """
    config = one_config(config, settings, WriterConfig)
    configure_tracing()
    keys = _Keys(
        task_key,
        messages_key,
        trajectory_key,
        verified_key,
        verification_key,
        query_key,
        files_key,
        receipts_key,
        written_key,
        status_key,
    )
    writer = _Writer(config, pool_getter(pool), keys)

    def write(state: dict[str, Any], runtime: Any) -> dict[str, Any]:
        return writer.write(state, runtime)

    return MemoryNode(write, name)


class _Writer:
    """One writer node's resolved models, outbox and pool access."""

    def __init__(
        self, config: WriterConfig, get_pool: Callable[[], MemoryPool], keys: _Keys
    ) -> None:
        self.types = config.types
        self.model = (
            resolve_chat_model(config.model, argument="writer.model") if config.model else None
        )
        if self.model is None and any(t is not MemoryType.TRAJECTORY for t in self.types):
            raise ValueError(
                "writer.model: needed to abstract workflow, summary or insight memories"
            )
        self.judge = (
            resolve_chat_model(config.judge, argument="writer.judge") if config.judge else None
        )
        self.box = config.outbox if isinstance(config.outbox, Outbox) else Outbox(config.outbox)
        self.producer = config.agent_model or (
            model_label(self.model) if self.model is not None else "unknown"
        )
        self.review = config.review
        self.get_pool = get_pool
        self.keys = keys

    def _done(self, written: list[str], status: str) -> dict[str, Any]:
        return {self.keys.written: written, self.keys.status: status}

    def write(self, state: dict[str, Any], runtime: Any) -> dict[str, Any]:
        """The node's body: the run from state, redacted, abstracted, written."""
        keys = self.keys
        if not context_value(runtime, "write", True):
            return self._done([], "skipped: writing disabled")
        domain = context_value(runtime, "domain", None)
        task = task_of(state, keys.task, keys.messages)
        if not domain or not task.strip():
            log.warning("memory not written: the run has no domain in context or no task")
            return self._done([], "skipped: no domain or no task")
        try:
            steps = _steps(state, keys.trajectory, keys.messages)
        except ValueError as exc:
            return self._done([], f"skipped: {exc}")
        verified = state.get(keys.verified)
        run = FinishedRun(
            task=task,
            steps=steps,
            domain=domain,
            task_id=context_value(runtime, "task_id", None) or run_digest(task, steps)[:12],
            verified=verified if isinstance(verified, bool) else None,
            agent_model=self.producer,
            report=str(state.get(keys.verification) or ""),
            files=_text_files(state.get(keys.files)),
            key_text=str(state.get(keys.query) or ""),
        )
        run, secrets = redact_run(run)  # the boundary: nothing below sees a raw secret
        used = [r["id"] for r in listed(state, keys.receipts) if isinstance(r, dict) and "id" in r]
        return self._write_run(run, secrets, used)

    def _abstract(
        self, run: FinishedRun, secrets: int
    ) -> tuple[list[MemoryRecord], list[str], list[str]]:
        """The run as a memory of each type, why any was dropped by rule (never retried), and
        which failed (those wait in the outbox)."""
        records: list[MemoryRecord] = []
        failed: list[tuple[MemoryType, Exception]] = []
        rejected: list[str] = []
        outcome = decide_outcome(run, self.judge)
        for kind in self.types:
            try:
                record = abstract_run(run, kind, model=self.model, outcome=outcome)
            except MemoryRejected as exc:  # broke a rule twice: dropped, not retried
                log.info("%s memory not written: %s", kind.value, exc)
                rejected.append(str(exc))
                continue
            except Exception as exc:
                log.warning("abstraction to %s failed; run kept in the outbox: %s", kind.value, exc)
                failed.append((kind, exc))
                continue
            if secrets:
                counted = int(record.flags.get("redacted", 0)) + secrets
                record = record.model_copy(update={"flags": {**record.flags, "redacted": counted}})
            records.append(record)
        if failed:
            target = self._address()  # one attempt to reach the pool, whatever failed
            for kind, error in failed:
                self.box.add_run(
                    run, kind.value, reason=str(error)[:300], outcome=outcome, pool=target
                )
        return records, rejected, [f"{kind.value} abstraction failed" for kind, _ in failed]

    def _write_run(self, run: FinishedRun, secrets: int, used: list[str]) -> dict[str, Any]:
        records, dropped, problems = self._abstract(run, secrets)
        if records and self.review:
            try:
                records = human_review(records)
            except ValueError as exc:
                return self._done([], f"review refused: {exc}; nothing written")
            if not records:
                return self._done([], "dropped by review")
        written: list[str] = []
        if records:
            written, quarantined = self._store(records, problems)
            dropped.extend(quarantined)
        if used:
            try:
                record_feedback(self.get_pool(), used, run_id=run.digest, passed=run.verified)
            except Exception as exc:
                log.warning("utility feedback not recorded: %s", exc)
        queued = ["queued: " + "; ".join(problems)] if problems else []
        return self._done(written, "; ".join([*dropped, *queued]) or "ok")

    def _store(
        self, records: list[MemoryRecord], problems: list[str]
    ) -> tuple[list[str], list[str]]:
        """Write ``records`` (or queue them in the outbox, saying why in ``problems``); the
        ids written and a note on those stored quarantined."""
        pool: MemoryPool | None = None
        try:
            pool = self.get_pool()
            report = pool.upsert(records)
            self.box.flush(pool, model=self.model)
            n = len(report.quarantined)
            return report.ids, [f"{n} stored quarantined (never retrieved by default)"] if n else []
        except Exception as exc:
            log.warning(
                "memory pool unavailable; %d memories kept in the outbox: %s", len(records), exc
            )
            target = pool.address if pool is not None else None  # opened, then failed
            for record in records:
                self.box.add_record(record, reason=str(exc)[:300], pool=target)
            state = failure_status(exc).split(":", 1)[0]
            problems.append(f"pool {state} ({type(exc).__name__}), queued {len(records)}")
            return [], []

    def _address(self) -> str | None:
        """The address of the node's pool, or None while it cannot be opened."""
        try:
            return self.get_pool().address
        except Exception:
            return None


def _text_files(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, str)}


def _steps(state: dict[str, Any], trajectory_key: str, messages_key: str) -> list[Step]:
    raw = state.get(trajectory_key)
    if raw:
        return coerce_steps(raw)
    return steps_from_messages(listed(state, messages_key))
