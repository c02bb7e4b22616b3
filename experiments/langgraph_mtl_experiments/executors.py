"""Where attempts run: threads in this process (:class:`LocalExecutor`, the default), or Ray
actors across a cluster (:class:`RayExecutor`, ``mtl experiment run --executor ray``).

The driver decides what each attempt is given (its run context: the memories handed to it, the
twins it may not see) and alone writes the results; an executor only runs attempts. A Ray
worker builds what it needs once (a model: its node's own local server, or the endpoint given
for all; the pool, which every worker reaches, a Chroma server across machines; each
condition's agent) and runs the attempts it is sent. A worker that dies is restarted and its
attempt sent again, a bounded number of times; an attempt still without a result is an
infrastructure failure (``infrastructure.jsonl``), never a failed attempt, so a resumed run
tries it again.
"""

from __future__ import annotations

import contextlib
import os
import queue
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from langgraph_mtl.agent import AgentContext
from langgraph_mtl_experiments.attempts import AgentSettings
from langgraph_mtl_experiments.conditions import Condition

__all__ = ["Executor", "Job", "LocalExecutor", "RayExecutor", "WorkerSetup"]

Model = str | Callable[[], Any]  # a model string, or a function building the chat model


@dataclass(frozen=True)
class Job:
    """One attempt to run: a condition's attempt on a task, or (``condition`` None) a phase-1
    run that writes memories."""

    domain: str
    task_id: str
    attempt: int
    context: AgentContext
    condition: Condition | None = None
    memory_types: tuple[str, ...] = ()  # what a phase-1 run writes

    @property
    def key(self) -> tuple[str, str, str, int]:
        name = self.condition.name if self.condition else "phase-1"
        return (name, self.domain, self.task_id, self.attempt)


Work = Callable[[Job], dict[str, Any]]
Done = Callable[[Job, dict[str, Any]], object]


class Executor:
    """Runs jobs and hands each result to ``done`` in this process, as it comes."""

    concurrency: int = 1

    def run(self, jobs: Sequence[Job], work: Work, done: Done) -> None:
        raise NotImplementedError

    def run_one(self, job: Job, work: Work) -> dict[str, Any]:
        """One job's result, waited for (LangSmith's evaluation calls one at a time)."""
        return work(job)

    def close(self) -> None:
        """Release what the executor holds (workers, a cluster connection)."""


class LocalExecutor(Executor):
    """Threads in this process, ``concurrency`` at a time; the first failure stops the rest."""

    def __init__(self, concurrency: int = 1) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency: must be at least 1, got {concurrency}")
        self.concurrency = concurrency

    def run(self, jobs: Sequence[Job], work: Work, done: Done) -> None:
        if self.concurrency == 1:
            for job in jobs:
                done(job, work(job))
            return
        pool = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="mtl-run")
        futures = {pool.submit(work, job): job for job in jobs}
        try:
            for future in as_completed(futures):
                done(futures[future], future.result())
        except BaseException:  # Ctrl-C or a failed run: start nothing new, do not wait
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()


@dataclass(frozen=True)
class WorkerSetup:
    """What a Ray worker needs to run attempts (sent to it once, picklable): the model (a
    string, or a function building it), the sampling temperature, the pool's location, the
    domains by name (with their tasks pinned), how the agent runs, ``k``, and the memory types
    phase 1 writes."""

    model: Model
    pool: str
    collection: str
    domains: dict[str, Any]
    agent: AgentSettings = field(default_factory=AgentSettings)
    embeddings: str | None = None  # the pool's embedder, by name (the default one when None)
    k: int = 3
    temperature: float | None = None
    memory_types: tuple[str, ...] = ("insight",)
    split: str = "eval"
    limit: int | None = None
    source_limit: int | None = None
    env: dict[str, str] = field(default_factory=dict)


class _Worker:
    """A Ray actor's state: the model, the pool and each condition's compiled agent, made once
    (see the module docstring)."""

    def __init__(self, setup: WorkerSetup) -> None:
        for name, value in setup.env.items():
            os.environ.setdefault(name, value)
        self.setup = setup
        self.server: Any = None
        self.chat: Any = None
        self.endpoint = ""
        self.pool: Any = None
        self.graphs: dict[str, Any] = {}
        self.tasks: dict[tuple[str, str], Any] = {}

    def _model(self) -> Any:
        if self.chat is not None:
            return self.chat
        spec, settings = self.setup.model, dict[str, Any]()
        if self.setup.temperature is not None:
            settings["temperature"] = self.setup.temperature
        if callable(spec):
            self.chat, self.endpoint = spec(), "in-process"
            return self.chat
        from langgraph_mtl.models import local_chat_model, parse_model_spec, resolve_chat_model

        parsed = parse_model_spec(spec)
        if parsed.needs_server:  # this worker's own local server
            from langgraph_mtl.local.server import LocalModelServer

            self.server = LocalModelServer(variant=parsed.variant, lanes=1).start()
            self.chat, self.endpoint = self.server.chat_model(**settings), self.server.base_url
        elif parsed.is_local:
            self.chat = local_chat_model(str(parsed.base_url), **settings)
            self.endpoint = str(parsed.base_url)
        else:
            chat = resolve_chat_model(spec)
            self.chat, self.endpoint = (
                (chat.model_copy(update=settings) if settings else chat),
                spec,
            )
        return self.chat

    def _pool(self) -> Any:
        if self.pool is None:
            from langgraph_mtl.pool.opening import open_pool

            self.pool = open_pool(
                self.setup.pool, collection=self.setup.collection, embeddings=self.setup.embeddings
            )
        return self.pool

    def _task(self, domain: str, task_id: str) -> tuple[Any, Any]:
        found = self.tasks.get((domain, task_id))
        if found is None:
            loaded = self.setup.domains[domain]
            for split, limit in (
                (self.setup.split, self.setup.limit),
                ("source", self.setup.source_limit),
            ):
                for task in loaded.tasks(split, limit=limit):
                    self.tasks[(domain, task.task_id)] = (loaded, task)
            found = self.tasks[(domain, task_id)]
        return found

    def _graph(self, job: Job) -> Any:
        condition, types = job.condition, job.memory_types or self.setup.memory_types
        name = condition.name if condition else f"phase-1 {','.join(types)}"
        if name not in self.graphs:
            from langgraph_mtl_experiments.run_graphs import condition_graph, memories_graph

            model, pool, setup = self._model(), self._pool(), self.setup
            self.graphs[name] = (
                condition_graph(condition, model=model, pool=pool, k=setup.k, agent=setup.agent)
                if condition is not None
                else memories_graph(model, pool, types, setup.agent)
            )
        return self.graphs[name]

    def run(self, job: Job, parent: dict[str, str] | None = None) -> dict[str, Any]:
        """One attempt (traced under ``parent``, a LangSmith run's headers, when given)."""
        from langgraph_mtl_experiments.attempts import attempt_task

        domain, task = self._task(job.domain, job.task_id)
        graph, agent = self._graph(job), self.setup.agent
        if job.condition is not None and not job.condition.in_writes:
            import dataclasses

            agent = dataclasses.replace(agent, focused_memories=False)
        scope: Any = contextlib.nullcontext()
        client: Any = None
        if parent:
            import langsmith

            from langgraph_mtl.tracing_client import redacting_client

            client = redacting_client()
            scope = langsmith.tracing_context(parent=parent, client=client)
        with scope:
            result = attempt_task(graph, domain, task, job.context, agent)
        if client is not None:  # sent before the result is: a worker may be stopped next
            with contextlib.suppress(Exception):
                client.flush()
        where = f"{socket.gethostname()}:{os.getpid()}"
        return {**result, "worker": where, "endpoint": self.endpoint}

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()


class RayExecutor(Executor):
    """Ray actors, ``workers`` of them (one CPU each), on the cluster at ``address`` (a new
    local one when ``None``); a dead worker is restarted and its attempt sent again up to
    ``retries`` times. ``runtime_env`` is handed to Ray (the tests give their modules' path)."""

    def __init__(
        self,
        setup: WorkerSetup,
        *,
        address: str | None = None,
        workers: int = 2,
        retries: int = 2,
        runtime_env: dict[str, Any] | None = None,
        on_failure: Callable[[Job, str], None] | None = None,
    ) -> None:
        try:
            import ray
        except ImportError:
            raise RuntimeError(
                "--executor ray needs Ray: pip install 'langgraph-mtl-experiments[ray]'"
            ) from None
        if workers < 1:
            raise ValueError(f"workers: must be at least 1, got {workers}")
        self.ray = ray
        self.concurrency = workers
        self.on_failure = on_failure
        if not ray.is_initialized():
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                runtime_env=runtime_env,
                ignore_reinit_error=True,
            )
        remote = ray.remote(num_cpus=1, max_restarts=retries, max_task_retries=retries)(_Worker)
        self.actors: list[Any] = [remote.remote(setup) for _ in range(workers)]
        self._idle: queue.SimpleQueue[Any] = queue.SimpleQueue()
        for actor in self.actors:
            self._idle.put(actor)

    def run(self, jobs: Sequence[Job], work: Work, done: Done) -> None:
        ray = self.ray
        queue = list(jobs)
        running: dict[Any, tuple[Job, Any]] = {}
        free = list(self.actors)
        while queue or running:
            while queue and free:
                actor, job = free.pop(), queue.pop(0)
                running[actor.run.remote(job)] = (job, actor)
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                job, actor = running.pop(ref)
                free.append(actor)
                try:
                    result = ray.get(ref)
                except Exception as exc:  # the worker died past its retries: not the agent
                    if self.on_failure is not None:
                        self.on_failure(job, f"{type(exc).__name__}: {str(exc)[:300]}")
                    continue
                done(job, result)

    def run_one(self, job: Job, work: Work) -> dict[str, Any]:
        from langsmith.run_helpers import get_current_run_tree

        tree = get_current_run_tree()  # the LangSmith example's run: the attempt nests under it
        parent = tree.to_headers() if tree is not None else None
        actor = self._idle.get()
        try:
            return dict(self.ray.get(actor.run.remote(job, parent)))
        finally:
            self._idle.put(actor)

    def close(self) -> None:
        for actor in self.actors:
            with contextlib.suppress(Exception):  # a worker already gone has nothing to stop
                self.ray.get(actor.stop.remote(), timeout=30)
