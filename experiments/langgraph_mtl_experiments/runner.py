"""Running conditions: evaluation (phase 2), resumable and concurrent, with receipts per
attempt (:mod:`.attempts`); phase 1 is :mod:`.phase_one`, re-exported here."""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel

from langgraph_mtl.agent import AgentContext
from langgraph_mtl.models import model_label
from langgraph_mtl.pool.memory_pool import MemoryPool
from langgraph_mtl.tracing_client import endpoint_down
from langgraph_mtl_experiments.attempts import (
    AgentSettings,
    ResultStore,
    StandIn,
    attempt_task,
    portable,
)
from langgraph_mtl_experiments.code_identity import current_code
from langgraph_mtl_experiments.conditions import Condition
from langgraph_mtl_experiments.domains import Domain, Task
from langgraph_mtl_experiments.executors import Executor, Job, LocalExecutor
from langgraph_mtl_experiments.given import GivenMemories, UsageCap
from langgraph_mtl_experiments.langsmith_eval import Ledger, evaluate_domain, langsmith_enabled
from langgraph_mtl_experiments.phase_one import (
    ALL_TYPES,
    PHASE_ONE,
    generate_memories,
    pending_sources,
)
from langgraph_mtl_experiments.pools import (
    choose_sources,
    condition_pool,
    snapshot,
)
from langgraph_mtl_experiments.progress import Lanes, Progress, Tally
from langgraph_mtl_experiments.run_graphs import condition_graph, memories_graph
from langgraph_mtl_experiments.summary import summarize, supported_k
from langgraph_mtl_experiments.twin_map import TwinMap, load_twin_map

__all__ = [
    "ALL_TYPES",
    "PHASE_ONE",
    "AgentSettings",
    "ResultStore",
    "attempt_task",
    "generate_memories",
    "memories_graph",
    "pending_sources",
    "portable",
    "run_condition",
    "summarize",
    "supported_k",
]


log = logging.getLogger(__name__)


def run_condition(
    condition: Condition,
    domains: Iterable[Domain],
    *,
    model: BaseChatModel | None,
    pool: MemoryPool,
    store: ResultStore,
    attempts: int = 3,
    limit: int | None = None,
    split: str = "eval",
    step_limit: int = 8,
    agent: AgentSettings | None = None,
    k: int = 3,
    concurrency: int = 1,
    snapshot_dir: Path | None = None,
    progress: Progress | None = None,
    reuse_same_prompt: bool = False,
    experiments: list[str] | None = None,
    twins: TwinMap | None = None,
    executor: Executor | None = None,
    model_name: str = "",
) -> None:
    """Evaluate one condition on each domain's split, ``concurrency`` attempts at a time (or on
    ``executor``'s workers, which bring their own model: ``model`` may then be ``None`` and
    ``model_name`` names it); already-stored attempts are skipped. The condition runs on its
    own pool when it keeps a share of the pool or re-weights by abstraction; ``snapshot_dir``
    receives what it could retrieve (JSONL + sha256 in ``manifest.json``). With a LangSmith
    key, each domain is also a LangSmith experiment (:mod:`.langsmith_eval`).

    ``reuse_same_prompt`` (only sound with deterministic decoding, temperature 0; attempts run
    here only): an attempt whose memories turn out to be exactly those of a stored attempt of
    another condition on the same task (none at all: zero-shot's) is not run again; it takes
    that attempt's outcome and says so (``reused_from``). A relevance gate that declines every
    memory then costs a plan call, not a run, and its comparison is free of decoding noise.
    ``agent`` says how the agent runs (``step_limit`` alone: that many steps for every kind of
    task). No attempt is given a memory written on its task's twin in another domain
    (``twins``: the committed map)."""
    agent = agent or AgentSettings(steps=step_limit, repository_steps=step_limit)
    executor = executor or LocalExecutor(concurrency)
    here = isinstance(executor, LocalExecutor)
    if here and model is None:
        raise ValueError("model: attempts run in this process need a chat model")
    experiments = experiments if experiments is not None else []  # LangSmith URLs, appended
    pool = condition_pool(pool, condition)
    if snapshot_dir is not None and condition.uses_memory:
        _record_snapshot(snapshot_dir, condition.name, snapshot(pool, condition, snapshot_dir))
    plan = [(domain, domain.tasks(split, limit=limit)) for domain in domains]
    planned = sum(len(tasks) for _, tasks in plan) * attempts
    cap = UsageCap(condition.max_share, planned) if condition.max_share else None
    twins = twins if twins is not None else load_twin_map()
    given = GivenMemories(condition, pool, k, twins=twins) if condition.given else None
    lanes = Lanes(executor.concurrency)
    reuse = reuse_same_prompt and condition.uses_memory and here
    graph = (
        condition_graph(
            condition,
            model=model,
            pool=pool,
            k=k,
            agent=agent,
            scorers=[cap] if cap else [],
            interrupt=reuse,
        )
        if here and model is not None
        else None
    )
    reuse = reuse and graph is not None and graph.checkpointer is not None
    if not condition.in_writes:
        agent = dataclasses.replace(agent, focused_memories=False)
    pool_domains = sorted({r.domain for r in pool.list_records()}) if condition.uses_memory else []
    by_key = store.by_key()
    label_of_model = model_label(model) if model is not None else model_name or "unknown"
    if cap is not None:  # a resumed run counts what its stored attempts were given
        for row in by_key.values():
            if row["condition"] == condition.name:
                cap.given([r["id"] for r in row.get("receipts", [])])

    # attempts of other conditions, by task, that a same-prompt attempt may stand in for
    ran: dict[tuple[str, str, int], list[dict[str, Any]]] = defaultdict(list)
    for row in by_key.values() if reuse else ():
        if (
            row["condition"] != condition.name
            and row["model"] == label_of_model
            and "reused_from" not in row
        ):
            ran[(row["domain"], row["task_id"], row["attempt"])].append(row)

    def same_prompt(domain: str, task_id: str, attempt: int) -> StandIn:
        def find(receipts: list[dict[str, Any]]) -> dict[str, Any] | None:
            ids = [r["id"] for r in receipts]
            for row in ran.get((domain, task_id, attempt), []):
                if [r["id"] for r in row.get("receipts", [])] == ids:
                    return row
            return None

        return find

    tally = Tally(progress, {f"{condition.name} / {d.name}": len(t) * attempts for d, t in plan})
    for domain, tasks in plan:
        for task in tasks:
            for attempt in range(attempts):
                stored = by_key.get(store.key(condition.name, domain.name, task.task_id, attempt))
                if stored is not None:
                    tally.stored(f"{condition.name} / {domain.name}", stored["passed"])
    tally.start()
    by_name = {domain.name: {task.task_id: task for task in tasks} for domain, tasks in plan}
    domains_by_name = {domain.name: domain for domain, _ in plan}

    def job_for(domain: Domain, task: Task, attempt: int) -> Job:
        sources = (
            (domain.name,)
            if condition.scope == "own"
            else choose_sources(condition, domain.name, pool_domains)
        )
        context = AgentContext(
            domain=domain.name,
            task_id=task.task_id,
            write=False,  # evaluation never changes the pool it is measured on
            retrieve=condition.uses_memory,
            include_own_domain=condition.scope == "own",
            source_domains=sources if condition.source_count or condition.scope == "own" else None,
            min_similarity=condition.min_similarity,
            given_memories=given.for_task(domain.name, task, attempt) if given else None,
            exclude_task_ids=twins.twins_of(domain.name, task.task_id),
        )
        return Job(domain.name, task.task_id, attempt, context, condition)

    def work(job: Job) -> dict[str, Any]:  # an attempt run here
        stand_in = same_prompt(job.domain, job.task_id, job.attempt) if reuse else None
        domain, task = domains_by_name[job.domain], by_name[job.domain][job.task_id]
        with lanes.held() as lane:
            return attempt_task(
                graph, domain, task, job.context, agent, stand_in=stand_in, lane=lane
            )

    def done(job: Job, result: dict[str, Any]) -> dict[str, Any]:
        if cap is not None:
            cap.given([r["id"] for r in result["receipts"]])
        context = job.context
        row = {
            "condition": condition.name,
            "domain": job.domain,
            "task_id": job.task_id,
            "attempt": job.attempt,
            "model": label_of_model,
            "source_domains": list(
                context.source_domains or choose_sources(condition, job.domain, pool_domains)
                if condition.scope != "own"
                else (job.domain,)
            ),
            "settings": condition.record(),
            "agent": agent.record(),
            "code": current_code().name,
            **result,
        }
        key = store.key(condition.name, job.domain, job.task_id, job.attempt)
        if key not in by_key:  # a job a retried worker ran twice is stored once
            store.add(row)
            by_key[key] = row
            tally.add(f"{condition.name} / {job.domain}", result["passed"])
        return by_key[key]

    def run_attempt(domain: Domain, task: Task, attempt: int) -> dict[str, Any]:
        key = store.key(condition.name, domain.name, task.task_id, attempt)
        if key in by_key:  # stored by an earlier, interrupted run: counted already
            return by_key[key]
        job = job_for(domain, task, attempt)
        return done(job, executor.run_one(job, work))

    ledger = Ledger(store.path.with_name("langsmith.json"))
    for domain, tasks in plan:
        if langsmith_enabled() and not endpoint_down():
            try:
                url = evaluate_domain(
                    condition,
                    domain.name,
                    tasks,
                    attempts=attempts,
                    concurrency=executor.concurrency,
                    run_attempt=functools.partial(run_attempt, domain),
                    ledger=ledger,
                    metadata={"model": label_of_model, "split": split},
                )
                if url:
                    experiments.append(url)
                continue
            except Exception as exc:  # LangSmith down: the local store carries on alone
                if not endpoint_down():  # a dead endpoint has been reported once already
                    log.warning("LangSmith experiment failed, running locally: %s", exc)
                by_key = store.by_key()
        jobs = [
            job_for(domain, task, attempt)
            for task in tasks
            for attempt in range(attempts)
            if store.key(condition.name, domain.name, task.task_id, attempt) not in by_key
        ]
        executor.run(jobs, work, done)


def _record_snapshot(directory: Path, name: str, entry: dict[str, object]) -> None:
    manifest = directory / "manifest.json"
    data = json.loads(manifest.read_text()) if manifest.exists() else {}
    data[name] = entry
    manifest.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
