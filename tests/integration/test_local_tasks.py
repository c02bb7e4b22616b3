"""The agent on the real local model solves a small fixed set of tasks (a minimum count, not a
single lucky task), each checked by its verifier."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from langgraph_mtl.agent import (
    AgentContext,
    Limits,
    RetrievalConfig,
    WriterConfig,
    create_coding_agent,
)

pytestmark = pytest.mark.integration

# (task id, starting files, task, verify command)
TASKS = [
    (
        "greet",
        {},
        "Create greet.py with a function greet(name) that returns 'Hello, NAME!' for "
        "the given name, for example greet('Ann') returns 'Hello, Ann!'.",
        "python3 -c \"from greet import greet; assert greet('Ann') == 'Hello, Ann!'\"",
    ),
    (
        "evens",
        {},
        "Create evens.py with a function evens(xs) that returns the even numbers of "
        "the list xs, in order.",
        "python3 -c 'from evens import evens; assert evens([1, 2, 3, 4, 6]) == [2, 4, 6]'",
    ),
    (
        "upper",
        {"input.txt": "hello\n"},
        "Write upper.py that reads input.txt and prints its content in upper case.",
        "python3 upper.py | grep -qx HELLO",
    ),
    (
        "count",
        {"data.txt": "a\nb\nc\n"},
        "Write a shell script count.sh that prints the number of lines in data.txt.",
        "bash count.sh | grep -qw 3",
    ),
]
MINIMUM = 3


def test_local_model_solves_most_of_a_fixed_task_set(local_model, tmp_path):
    graph = create_coding_agent(
        local_model,
        pool=lambda: None,
        retrieval=RetrievalConfig(memory_types=None),
        writer=WriterConfig(memory_types="trajectory"),
        limits=Limits(steps=6),
    ).compile()
    solved: list[str] = []
    for tried, (task_id, files, task, verify) in enumerate(TASKS):
        if len(solved) >= MINIMUM or len(solved) + len(TASKS) - tried < MINIMUM:
            break  # decided: the remaining tasks cannot change the verdict
        workspace = tmp_path / task_id
        workspace.mkdir()
        for name, text in files.items():
            (workspace / name).write_text(text)
        out = graph.invoke(
            {"task": task},
            context=AgentContext(
                domain="python",
                task_id=task_id,
                workspace=str(workspace),
                verify_command=verify,
                retrieve=False,
                write=False,
            ),
            config={"recursion_limit": 30},
        )
        if out.get("verified"):
            solved.append(task_id)
        print(task_id, out.get("verified"), [s["action"][:120] for s in out["trajectory"]])
    assert len(solved) >= MINIMUM, solved


def test_real_attempts_with_the_local_model_on_two_ray_workers(tmp_path):
    """Two Ray workers, each with its own local model server, run real attempts; the driver
    writes every row once, each naming the endpoint that served it."""
    pytest.importorskip("ray")
    import ray
    from helpers import TinyDomain
    from langgraph_mtl_experiments import CONDITIONS, ResultStore
    from langgraph_mtl_experiments.executors import RayExecutor, WorkerSetup
    from langgraph_mtl_experiments.runner import run_condition

    from langgraph_mtl import open_pool
    from langgraph_mtl.home import mtl_home

    domain = TinyDomain("alpha")
    here = [str(Path(__file__).resolve().parents[1]), *sys.path]
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(here)}},
    )
    pool_dir = str(tmp_path / "pool")
    pool = open_pool(pool_dir, collection="ray-local")
    setup = WorkerSetup(
        model="local",
        pool=pool_dir,
        collection="ray-local",
        domains={"alpha": domain},
        split="all",
        temperature=0,
        env={"MTL_HOME": str(mtl_home().resolve())},
    )
    executor = RayExecutor(setup, workers=2)
    store = ResultStore(tmp_path / "results.jsonl")
    try:
        run_condition(
            CONDITIONS["zero-shot"], [domain], model=None, pool=pool, store=store,
            attempts=1, split="all", limit=2, step_limit=1, executor=executor, model_name="local",
        )  # fmt: skip
    finally:
        executor.close()
        ray.shutdown()
    rows = list(store.rows())
    assert len(rows) == len({r["task_id"] for r in rows}) == 2
    assert len({r["endpoint"] for r in rows}) == 2  # each worker's own server
    assert all(r["calls"] for r in rows)  # the model answered every attempt
