"""Phase 1: the agent, with no memory, on each domain's source split, every run verified and
written to the pool as memories of each type; resumable from the pool and its rows. Each row
carries the records its run wrote, so a pool whose folder was lost is refilled from the rows
(:func:`restore_phase_one`) instead of going on with part of its memories."""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from langchain_core.language_models import BaseChatModel

from langgraph_mtl.agent import AgentContext
from langgraph_mtl.memory.records import MemoryType
from langgraph_mtl.models import model_label
from langgraph_mtl.pool.memory_pool import MemoryPool
from langgraph_mtl_experiments.attempts import AgentSettings, ResultStore, attempt_task
from langgraph_mtl_experiments.code_identity import current_code
from langgraph_mtl_experiments.domains import Domain, Task
from langgraph_mtl_experiments.executors import Executor, Job, LocalExecutor
from langgraph_mtl_experiments.progress import Lanes, Progress, Tally
from langgraph_mtl_experiments.run_graphs import memories_graph

__all__ = ["ALL_TYPES", "PHASE_ONE", "generate_memories", "pending_sources", "restore_phase_one"]

ALL_TYPES = tuple(t.value for t in MemoryType)
PHASE_ONE = "phase-1"  # the condition name of phase 1's rows


def pending_sources(
    domains: Iterable[Domain],
    pool: MemoryPool,
    *,
    limit: int | None = None,
    store: ResultStore | None = None,
) -> list[tuple[Domain, Task]]:
    """The source-split tasks that have no memory in the pool yet and no phase-1 row in
    ``store`` (phase 1's remaining work): a run whose memories were all dropped is not run
    again, so a resumed phase 1 gives no task a second try at being kept."""
    present = pool.covered_tasks()
    if store is not None:
        present |= {
            (r["domain"], r["task_id"]) for r in store.rows() if r["condition"] == PHASE_ONE
        }
    return [
        (domain, task)
        for domain in domains
        for task in domain.tasks("source", limit=limit)
        if (domain.name, task.task_id) not in present
    ]


def _records(pool: MemoryPool, ids: list[str]) -> list[dict[str, Any]]:
    """The pool's records ``ids``, as the export writes them (no vectors)."""
    buffer = io.StringIO()
    pool.export_ids(buffer, ids)
    return [json.loads(line)["record"] for line in buffer.getvalue().splitlines()]


def _present(pool: MemoryPool, ids: list[str]) -> set[str]:
    """Which of ``ids`` the pool holds."""
    held: set[str] = set()
    for start in range(0, len(ids), 500):
        held.update(pool.collection.get(ids=ids[start : start + 500], include=[])["ids"])
    return held


def restore_phase_one(pool: MemoryPool, store: ResultStore) -> tuple[int, list[str]]:
    """Put back into ``pool`` the records that phase-1 rows of ``store`` carry and the pool
    lacks (the pool's folder is not kept with the rows). Returns how many were restored and
    the ids that rows say were written but that neither the pool nor any row holds.

    Raises:
        ValueError: a record a row carries is refused by the pool (the message names it).
    """
    rows = [r for r in store.rows() if r["condition"] == PHASE_ONE]
    written = sorted({str(i) for r in rows for i in r.get("written") or ()})
    present = _present(pool, written)
    carried = {str(rec.get("id")): rec for r in rows for rec in r.get("records") or ()}
    lines = [json.dumps({"record": rec}) for i, rec in carried.items() if i not in present]
    restored = 0
    if lines:
        report = pool.import_jsonl(lines)
        if report.errors:
            line, why = report.errors[0]
            raise ValueError(f"{store.path}: a phase-1 record (#{line}) was refused: {why}")
        now = _present(pool, written)
        restored, present = len(now - present), now
    return restored, [i for i in written if i not in present]


def generate_memories(
    domains: Iterable[Domain],
    *,
    model: BaseChatModel | None,
    pool: MemoryPool,
    limit: int | None = None,
    memory_types: Iterable[str] = ALL_TYPES,
    step_limit: int = 8,
    agent: AgentSettings | None = None,
    concurrency: int = 1,
    progress: Progress | None = None,
    store: ResultStore | None = None,
    executor: Executor | None = None,
    model_name: str = "",
) -> int:
    """Phase 1: run the agent (no memory) on each domain's source split, verify, and write every
    run as memories of each type, labelled by the verifier. Tasks that already have memories in
    the pool or a row in ``store`` are skipped, so an interrupted phase 1 resumes. ``store``
    keeps a row per run (condition ``phase-1``: its outcome, what was written and why anything
    was not, and the records it wrote, so :func:`restore_phase_one` can refill a lost pool). On
    ``executor``'s workers the memories are written by the workers, to the pool they all reach;
    every run has ended when this returns. Returns how many runs were written."""
    agent = agent or AgentSettings(steps=step_limit, repository_steps=step_limit)
    executor = executor or LocalExecutor(concurrency)
    types = tuple(memory_types)
    here = isinstance(executor, LocalExecutor)
    graph = memories_graph(model, pool, types, agent) if here and model is not None else None
    if here and graph is None:
        raise ValueError("model: runs in this process need a chat model")
    work_items = pending_sources(domains, pool, limit=limit, store=store)
    tally = Tally(progress, Counter(f"memories / {domain.name}" for domain, _ in work_items))
    tally.start()
    written: list[bool] = []
    lanes = Lanes(executor.concurrency)
    by_name = {(domain.name, task.task_id): (domain, task) for domain, task in work_items}

    def work(job: Job) -> dict[str, Any]:
        domain, task = by_name[(job.domain, job.task_id)]
        with lanes.held() as lane:
            return attempt_task(graph, domain, task, job.context, agent, lane=lane)

    def done(job: Job, result: dict[str, Any]) -> None:
        written.append(bool(result["written"]))
        tally.add(f"memories / {job.domain}", result["passed"])
        if store is not None:
            store.add(
                {
                    "condition": PHASE_ONE,
                    "domain": job.domain,
                    "task_id": job.task_id,
                    "attempt": 0,
                    "model": model_label(model) if model is not None else model_name,
                    "memory_types": list(types),
                    "agent": agent.record(),
                    "code": current_code().name,
                    **result,
                    "records": _records(pool, [str(i) for i in result["written"]]),
                }
            )

    jobs = [
        Job(
            domain.name,
            task.task_id,
            0,
            AgentContext(domain=domain.name, task_id=task.task_id, retrieve=False),
            memory_types=types,
        )
        for domain, task in work_items
    ]
    executor.run(jobs, work, done)
    return sum(written)
