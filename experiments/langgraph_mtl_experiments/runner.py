"""Running conditions: memory generation and evaluation, resumable, with receipts per attempt.

Every attempt is one JSON line in a results file, keyed by (condition, domain, task, attempt):
an interrupted run (Ctrl-C or kill -9) resumes where it stopped, without duplicating or losing
results (a torn last line is ignored and that attempt runs again).
"""

from __future__ import annotations

import functools
import json
import logging
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_mtl._files import append_json_line
from langgraph_mtl.agent import (
    AgentContext,
    Limits,
    RetrievalConfig,
    WriterConfig,
    create_coding_agent,
)
from langgraph_mtl.home import mtl_home
from langgraph_mtl.memory.records import MemoryType
from langgraph_mtl.models import model_label
from langgraph_mtl.pool.memory_pool import MemoryPool
from langgraph_mtl_experiments.conditions import Condition
from langgraph_mtl_experiments.domains import Domain, Task
from langgraph_mtl_experiments.langsmith_eval import evaluate_domain, langsmith_enabled
from langgraph_mtl_experiments.passk import pass_at_k
from langgraph_mtl_experiments.pools import (
    choose_sources,
    condition_pool,
    condition_scorers,
    snapshot,
)

__all__ = [
    "ResultStore",
    "portable",
    "generate_memories",
    "pending_sources",
    "run_condition",
    "attempt_task",
    "summarize",
    "supported_k",
]


log = logging.getLogger(__name__)

ALL_TYPES = tuple(t.value for t in MemoryType)


class ResultStore:
    """Append-only JSONL of attempt results, safe to resume and to share between threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self.path.parent.mkdir(parents=True, exist_ok=True)

    @staticmethod
    def key(condition: str, domain: str, task_id: str, attempt: int) -> str:
        return f"{condition}|{domain}|{task_id}|{attempt}"

    def rows(self) -> Iterator[dict[str, Any]]:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as handle:
            for line in handle:
                try:
                    yield json.loads(line)
                except json.JSONDecodeError:  # a torn line from a killed run
                    continue

    def by_key(self) -> dict[str, dict[str, Any]]:
        """Every stored attempt, by key."""
        return {
            self.key(r["condition"], r["domain"], r["task_id"], r["attempt"]): r
            for r in self.rows()
        }

    def add(self, row: dict[str, Any]) -> None:
        """Append one attempt; paths of this machine in it (a traceback's file names, say)
        are written as ``$MTL_HOME/...`` and ``~/...``, so results can be shared as they are."""
        with self._lock:
            append_json_line(self.path, portable(row))


def portable(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with this machine's state and home directories written as placeholders."""
    text = json.dumps(row, ensure_ascii=False)
    for path, placeholder in ((mtl_home().resolve(), "$MTL_HOME"), (Path.home(), "~")):
        text = text.replace(json.dumps(f"{path}/")[1:-1], f"{placeholder}/")
    return dict(json.loads(text))


StandIn = Callable[[list[dict[str, Any]]], "dict[str, Any] | None"]
"""Given the memories an attempt was handed, an attempt already run with the same prompt."""

_OUTCOME = ("passed", "steps", "tokens", "seconds", "verification", "tampered", "written")


def attempt_task(
    graph: Any,
    domain: Domain,
    task: Task,
    context: AgentContext,
    step_limit: int,
    *,
    stand_in: StandIn | None = None,
) -> dict[str, Any]:
    """One agent run on a task in a fresh workspace: verdict, steps, tokens, seconds, receipts.
    The task's verifier checks the finished workspace (its allowlisted files, elsewhere); a
    run that changed protected or steering files is marked ``tampered`` and never passes.

    With ``stand_in`` (the graph compiled to stop after ``retrieve_memories``), the run pauses
    once its memories are chosen; if ``stand_in`` names an attempt already run with the same
    memories (so the same prompt), that attempt's outcome is returned, marked ``reused_from``.
    """
    with tempfile.TemporaryDirectory(prefix=f"mtl-{task.domain}-") as ws:
        task.prepare(ws)
        context.workspace = ws
        context.command_env = dict(task.env) or None
        context.verifier = functools.partial(task.verify_workspace, baseline=task.baseline(ws))
        started = time.monotonic()
        config: dict[str, Any] = {"recursion_limit": step_limit + 10}
        if stand_in is None:
            state = graph.invoke({"task": task.instruction}, context=context, config=config)
        else:
            thread = uuid.uuid4().hex
            config["configurable"] = {"thread_id": thread}
            try:
                state = graph.invoke({"task": task.instruction}, context=context, config=config)
                earlier = stand_in(state.get("memory_receipts", []))
                if earlier is not None:
                    return {
                        **{key: earlier[key] for key in _OUTCOME},
                        "receipts": state.get("memory_receipts", []),
                        "memory_status": state.get("memory_status", ""),
                        "reused_from": earlier["condition"],
                    }
                state = graph.invoke(None, context=context, config=config)  # go on from there
            finally:
                graph.checkpointer.delete_thread(thread)
        return {
            "passed": bool(state.get("verified")),
            "steps": state.get("steps_taken", 0),
            "tokens": int(state.get("tokens_used", 0)),  # plan and act calls, as reported
            "seconds": round(time.monotonic() - started, 2),
            "receipts": state.get("memory_receipts", []),
            "memory_status": state.get("memory_status", ""),
            "verification": str(state.get("verification", ""))[-1500:],
            "tampered": list(state.get("tampered", [])),
            "written": state.get("memory_written", []),
        }


Progress = Callable[[str, int, int, float], None]


class _Tally:
    """Done/passed counts per progress label, safe to update from worker threads. Attempts
    already stored are counted first and announced once per label (``start``), so a progress
    display can tell them from runs finished now (a replay takes no time)."""

    def __init__(self, progress: Progress | None, totals: Mapping[str, int]) -> None:
        self.progress, self.totals = progress, totals
        self.counts = {label: [0, 0] for label in totals}
        self.lock = threading.Lock()

    def stored(self, label: str, passed: bool) -> None:
        """Count an attempt already stored, without reporting it."""
        self.counts[label][0] += 1
        self.counts[label][1] += passed

    def start(self) -> None:
        """Report every label once with what was already stored (often nothing)."""
        for label, (done, passed) in self.counts.items():
            if self.progress:
                self.progress(label, done, self.totals[label], passed / done if done else 0.0)

    def add(self, label: str, passed: bool) -> None:
        with self.lock:
            count = self.counts[label]
            count[0] += 1
            count[1] += passed
            if self.progress:
                self.progress(label, count[0], self.totals[label], count[1] / count[0])


def _run_all(jobs: Sequence[Callable[[], object]], concurrency: int) -> None:
    """Run the jobs, ``concurrency`` at a time; the first failure stops the rest and re-raises."""
    if concurrency < 1:
        raise ValueError(f"concurrency: must be at least 1, got {concurrency}")
    if concurrency == 1:
        for job in jobs:
            job()
        return
    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="mtl-run")
    futures = [pool.submit(job) for job in jobs]
    try:
        for future in as_completed(futures):
            future.result()
    except BaseException:  # Ctrl-C or a failed run: start nothing new, do not wait
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def run_condition(
    condition: Condition,
    domains: Iterable[Domain],
    *,
    model: BaseChatModel,
    pool: MemoryPool,
    store: ResultStore,
    attempts: int = 3,
    limit: int | None = None,
    split: str = "eval",
    step_limit: int = 8,
    k: int = 3,
    concurrency: int = 1,
    snapshot_dir: Path | None = None,
    progress: Progress | None = None,
    reuse_same_prompt: bool = False,
) -> None:
    """Evaluate one condition on each domain's split, ``concurrency`` attempts at a time;
    already-stored attempts are skipped. The condition runs on its own pool when it keeps a
    share of the pool or re-weights by abstraction; ``snapshot_dir`` receives what it could
    retrieve (JSONL + sha256 in ``manifest.json``). With a LangSmith key, each domain is also
    a LangSmith experiment (:mod:`.langsmith_eval`).

    ``reuse_same_prompt`` (only sound with deterministic decoding, temperature 0): an attempt
    whose memories turn out to be exactly those of a stored attempt of another condition on the
    same task (none at all: zero-shot's) is not run again; it takes that attempt's outcome and
    says so (``reused_from``). A relevance gate that declines every memory then costs a plan
    call, not a run, and its comparison is free of decoding noise."""
    pool = condition_pool(pool, condition)
    if snapshot_dir is not None and condition.uses_memory:
        _record_snapshot(snapshot_dir, condition.name, snapshot(pool, condition, snapshot_dir))
    builder = create_coding_agent(
        model,
        pool=pool,
        retrieval=RetrievalConfig(
            memory_types=condition.memory_types or None,
            k=k,
            strategy=condition.strategy,
            rerank=condition.rerank,
            scorers=condition_scorers(condition),
        ),
        writer=WriterConfig(memory_types="trajectory"),
        limits=Limits(steps=step_limit),
    )
    reuse = reuse_same_prompt and condition.uses_memory
    graph = (
        builder.compile(checkpointer=InMemorySaver(), interrupt_after=["retrieve_memories"])
        if reuse
        else builder.compile()
    )
    pool_domains = sorted({r.domain for r in pool.list_records()}) if condition.uses_memory else []
    by_key = store.by_key()
    label_of_model = model_label(model)
    plan = [(domain, domain.tasks(split, limit=limit)) for domain in domains]

    # attempts of other conditions, by task, that a same-prompt attempt may stand in for
    ran: dict[tuple[str, str, int], list[dict[str, Any]]] = defaultdict(list)
    for row in by_key.values() if reuse else ():
        if (
            row["condition"] != condition.name
            and row["model"] == label_of_model
            and "reused_from" not in row
        ):
            ran[(row["domain"], row["task_id"], row["attempt"])].append(row)

    def same_prompt(domain: Domain, task: Task, attempt: int) -> StandIn:
        def find(receipts: list[dict[str, Any]]) -> dict[str, Any] | None:
            ids = [r["id"] for r in receipts]
            for row in ran.get((domain.name, task.task_id, attempt), []):
                if [r["id"] for r in row.get("receipts", [])] == ids:
                    return row
            return None

        return find

    tally = _Tally(progress, {f"{condition.name} / {d.name}": len(t) * attempts for d, t in plan})
    for domain, tasks in plan:
        for task in tasks:
            for attempt in range(attempts):
                stored = by_key.get(store.key(condition.name, domain.name, task.task_id, attempt))
                if stored is not None:
                    tally.stored(f"{condition.name} / {domain.name}", stored["passed"])
    tally.start()

    def run_attempt(domain: Domain, task: Task, attempt: int) -> dict[str, Any]:
        label = f"{condition.name} / {domain.name}"
        key = store.key(condition.name, domain.name, task.task_id, attempt)
        if key in by_key:  # stored by an earlier, interrupted run: counted already
            return by_key[key]
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
        )
        stand_in = same_prompt(domain, task, attempt) if reuse else None
        result = attempt_task(graph, domain, task, context, step_limit, stand_in=stand_in)
        row = {
            "condition": condition.name,
            "domain": domain.name,
            "task_id": task.task_id,
            "attempt": attempt,
            "model": label_of_model,
            "source_domains": list(sources),
            "settings": condition.record(),
            **result,
        }
        store.add(row)
        tally.add(label, result["passed"])
        return row

    for domain, tasks in plan:
        if langsmith_enabled():
            try:
                evaluate_domain(
                    condition,
                    domain.name,
                    tasks,
                    attempts=attempts,
                    concurrency=concurrency,
                    run_attempt=functools.partial(run_attempt, domain),
                    metadata={"model": model_label(model), "split": split},
                )
                continue
            except Exception as exc:  # LangSmith down: the local store carries on alone
                log.warning("LangSmith experiment failed, running locally: %s", exc)
                by_key = store.by_key()
        jobs = [
            functools.partial(run_attempt, domain, task, attempt)
            for task in tasks
            for attempt in range(attempts)
        ]
        _run_all(jobs, concurrency)


def _record_snapshot(directory: Path, name: str, entry: dict[str, object]) -> None:
    manifest = directory / "manifest.json"
    data = json.loads(manifest.read_text()) if manifest.exists() else {}
    data[name] = entry
    manifest.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def pending_sources(
    domains: Iterable[Domain], pool: MemoryPool, *, limit: int | None = None
) -> list[tuple[Domain, Task]]:
    """The source-split tasks that have no memory in the pool yet (phase 1's remaining work)."""
    present = pool.covered_tasks()
    return [
        (domain, task)
        for domain in domains
        for task in domain.tasks("source", limit=limit)
        if (domain.name, task.task_id) not in present
    ]


def generate_memories(
    domains: Iterable[Domain],
    *,
    model: BaseChatModel,
    pool: MemoryPool,
    limit: int | None = None,
    memory_types: Iterable[str] = ALL_TYPES,
    step_limit: int = 8,
    concurrency: int = 1,
    progress: Progress | None = None,
) -> int:
    """Phase 1: run the agent (no memory) on each domain's source split, verify, and write every
    run as memories of each type, labelled by the verifier. Tasks that already have memories in
    the pool are skipped, so an interrupted phase 1 resumes. Returns how many runs were written."""
    graph = create_coding_agent(
        model,
        pool=pool,
        retrieval=RetrievalConfig(memory_types=None),
        writer=WriterConfig(memory_types=tuple(memory_types)),
        limits=Limits(steps=step_limit),
    ).compile()
    work = pending_sources(domains, pool, limit=limit)
    tally = _Tally(progress, Counter(f"memories / {domain.name}" for domain, _ in work))
    tally.start()
    written: list[bool] = []

    def job(domain: Domain, task: Task) -> None:
        context = AgentContext(domain=domain.name, task_id=task.task_id, retrieve=False)
        result = attempt_task(graph, domain, task, context, step_limit)
        written.append(bool(result["written"]))
        tally.add(f"memories / {domain.name}", result["passed"])

    _run_all([functools.partial(job, domain, task) for domain, task in work], concurrency)
    return sum(written)


def supported_k(rows: Iterable[dict[str, Any]], requested: int | None = None) -> int:
    """The k of pass@k these rows support: ``requested``, or the fewest attempts any task has
    (at most 3); a ``requested`` k above that fewest raises ``ValueError``."""
    per_task = Counter((r["condition"], r["domain"], r["task_id"]) for r in rows)
    fewest = min(per_task.values(), default=1)
    if requested is not None and requested > fewest:
        raise ValueError(
            f"pass@{requested} needs {requested} attempts of every task and some have {fewest}"
        )
    return requested or min(3, fewest)


def summarize(rows: Iterable[dict[str, Any]], *, k: int = 3) -> dict[str, dict[str, Any]]:
    """pass@1 and pass@k per condition and domain, and both averages (task-weighted, per-domain)."""
    per: dict[tuple[str, str, str], list[bool]] = {}
    for r in rows:
        per.setdefault((r["condition"], r["domain"], r["task_id"]), []).append(bool(r["passed"]))
    table: dict[str, dict[str, Any]] = {}
    for (condition, domain, _), outcomes in per.items():
        n, c = len(outcomes), sum(outcomes)
        cell = table.setdefault(condition, {}).setdefault(domain, {"p1": [], "pk": []})
        cell["p1"].append(pass_at_k(n, c, 1))
        cell["pk"].append(pass_at_k(n, c, min(k, n)))
    out: dict[str, dict[str, Any]] = {}
    for condition, domains in table.items():
        row: dict[str, Any] = {}
        all_p1: list[float] = []
        all_pk: list[float] = []
        for domain, cell in sorted(domains.items()):
            row[domain] = {
                "tasks": len(cell["p1"]),
                "pass@1": sum(cell["p1"]) / len(cell["p1"]),
                f"pass@{k}": sum(cell["pk"]) / len(cell["pk"]),
            }
            all_p1 += cell["p1"]
            all_pk += cell["pk"]
        row["avg (tasks)"] = {
            "pass@1": sum(all_p1) / len(all_p1),
            f"pass@{k}": sum(all_pk) / len(all_pk),
        }
        row["avg (domains)"] = {
            metric: sum(row[d][metric] for d in domains) / len(domains)
            for metric in ("pass@1", f"pass@{k}")
        }
        out[condition] = row
    return out
