"""Attempts fanned out on a Ray cluster the tests start themselves: the same rows as threads in
one process, a worker killed mid-attempt losing and duplicating nothing, a resumed run repeating
no stored key, and every phase on a real Chroma server the workers share."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from chroma_server import ChromaServer
from helpers import TinyDomain, dying_solver, make_record, scripted_solver

pytest.importorskip("ray")

from langgraph_mtl_experiments import CONDITIONS, ResultStore
from langgraph_mtl_experiments.executors import RayExecutor, WorkerSetup
from langgraph_mtl_experiments.runner import generate_memories, run_condition

from langgraph_mtl import open_pool
from langgraph_mtl.testing import HashingEmbeddings

pytestmark = pytest.mark.slow

DOMAINS = {"alpha": TinyDomain("alpha"), "beta": TinyDomain("beta")}
CONDITION_NAMES = ("zero-shot", "mtl-insight")
SAME = ("condition", "domain", "task_id", "attempt", "passed", "steps", "memory_status")


@pytest.fixture(scope="module")
def cluster():
    import ray

    here = [str(Path(__file__).resolve().parents[1]), *sys.path]
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(here)}},
    )
    yield ray
    ray.shutdown()


@pytest.fixture
def server(tmp_path):
    chroma = ChromaServer(tmp_path / "chroma").start()
    yield chroma
    chroma.stop()


def _pool(where: str, collection: str):
    pool = open_pool(where, collection=collection, embeddings="hashing-256")
    if not pool.count():
        pool.upsert(
            [
                make_record(domain, f"{domain}-m{i}", f"write the number to out.txt ({domain} {i})")
                for domain in ("gamma", "delta")
                for i in range(3)
            ]
        )
    return pool


def _executor(where: str, collection: str, model=scripted_solver, **kwargs) -> RayExecutor:
    setup = WorkerSetup(
        model=model,
        pool=where,
        collection=collection,
        embeddings="hashing-256",
        domains=DOMAINS,
        split="all",
    )
    return RayExecutor(setup, workers=2, **kwargs)


def _run(store, pool, executor=None) -> list[dict]:
    for name in CONDITION_NAMES:
        run_condition(
            CONDITIONS[name],
            DOMAINS.values(),
            model=None if executor else scripted_solver(),
            pool=pool,
            store=store,
            attempts=1,
            split="all",
            step_limit=4,
            executor=executor,
            model_name="scripted",
        )
    return list(store.rows())


def _rows(rows: list[dict]) -> list[tuple]:
    return sorted(
        (*(row[f] for f in SAME), tuple(r["id"] for r in row["receipts"])) for row in rows
    )


def test_the_ray_executor_gives_the_rows_threads_give(cluster, server, tmp_path):
    pool = _pool(server.url, "same-rows")
    local = _run(ResultStore(tmp_path / "local.jsonl"), pool)
    executor = _executor(server.url, "same-rows")
    try:
        remote = _run(ResultStore(tmp_path / "ray.jsonl"), pool, executor)
    finally:
        executor.close()
    assert len(local) == len(remote) == 2 * 2 * 4  # conditions x domains x tasks
    assert _rows(remote) == _rows(local)
    assert {row["worker"] for row in remote} and all(row["endpoint"] for row in remote)
    assert any(row["receipts"] for row in remote)  # the memory condition read the shared pool


def test_a_worker_killed_mid_attempt_loses_and_duplicates_nothing(cluster, server, tmp_path):
    pool = _pool(server.url, "killed")
    marker = tmp_path / "died"
    executor = _executor(server.url, "killed", model=lambda: dying_solver(str(marker)))
    store = ResultStore(tmp_path / "killed.jsonl")
    try:
        rows = _run(store, pool, executor)
    finally:
        executor.close()
    assert marker.exists()  # a worker did die mid-attempt
    keys = [(r["condition"], r["domain"], r["task_id"], r["attempt"]) for r in rows]
    assert len(keys) == len(set(keys)) == 2 * 2 * 4
    assert all(r["passed"] for r in rows)  # the attempt was run again, not lost or failed


def test_a_resumed_run_repeats_no_stored_key(cluster, server, tmp_path):
    pool = _pool(server.url, "resumed")
    store = ResultStore(tmp_path / "resumed.jsonl")
    executor = _executor(server.url, "resumed")
    try:
        run_condition(
            CONDITIONS["zero-shot"],
            [DOMAINS["alpha"]],
            model=None,
            pool=pool,
            store=store,
            attempts=1,
            split="all",
            limit=2,
            executor=executor,
            model_name="scripted",
        )  # stopped after two tasks
        first = [r["task_id"] for r in store.rows()]
        rows = _run(store, pool, executor)
    finally:
        executor.close()
    keys = [(r["condition"], r["domain"], r["task_id"], r["attempt"]) for r in rows]
    assert len(first) == 2 and len(keys) == len(set(keys)) == 16  # the first two once


def test_phase_one_writes_land_in_the_shared_pool_before_any_condition_reads(
    cluster, server, tmp_path
):
    pool = open_pool(server.url, collection="phase-one", embeddings="hashing-256")
    executor = _executor(server.url, "phase-one")
    try:
        made = generate_memories(
            [DOMAINS["alpha"]], model=None, pool=pool, limit=2, memory_types=["trajectory"],
            executor=executor, model_name="scripted",
        )  # fmt: skip
    finally:
        executor.close()
    assert made == 2 and {r.task_id for r in pool.list_records()} == {"alpha-0", "alpha-3"}
    assert isinstance(pool.embeddings, HashingEmbeddings)


def test_mtl_experiment_run_on_ray_workers_with_a_model_endpoint_given_once(
    cluster, tmp_path, monkeypatch, capsys
):
    """The command's whole path: phase 1 and a memory condition on two workers that share one
    model endpoint (a scripted server here) and the run's pool, the driver alone writing."""
    import functools

    from helpers import run_cli
    from langgraph_mtl_experiments import DOMAINS as REGISTRY
    from scripted_openai import scripted_openai

    monkeypatch.setitem(REGISTRY, "alpha", functools.partial(TinyDomain, "alpha"))
    monkeypatch.setitem(REGISTRY, "beta", functools.partial(TinyDomain, "beta"))
    out = tmp_path / "run"
    with scripted_openai() as url:
        done = run_cli(
            capsys,
            *("experiment", "run", "--out", str(out), "--domains", "alpha,beta"),
            *("--conditions", "zero-shot,mtl-trajectory", "--limit", "2", "--source-limit", "1"),
            *("--attempts", "1", "--steps", "3", "--concurrency", "2", "--executor", "ray"),
            *("--model", f"local:{url}", "--temperature", "0", "--unsafe-no-sandbox"),
        )
    assert done.code == 0, done.text
    rows = list(ResultStore(out / "results.jsonl").rows())
    assert len(rows) == 2 * 2 * 2 and all(r["endpoint"] == url for r in rows)
    assert len(list(ResultStore(out / "memories.jsonl").rows())) == 2  # phase 1, one a domain
    assert "--executor ray" in (out / "commands.txt").read_text()
