"""What the LangSmith tests run in a process of its own: ``python tests/langsmith_cases.py CASE
OUT``, with the LangSmith variables set (or not) by the test. Each case plants secrets in the
task, the model's replies and a command's output, and prints one JSON line of what it did.

- ``drop-in``: the drop-in nodes in a graph of one's own (the README's snippet, a scripted model);
- ``agent``: the prebuilt agent on a task whose command prints a secret;
- ``experiment``: two conditions on a tiny domain through the experiment runner, with the
  results in OUT (run it twice to resume).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

OPENAI = "sk-proj-Ab3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9fG1hJ3"
PG_PASSWORD = "Sup3rS3cret!Pg"
GITHUB = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
SECRETS = (OPENAI, PG_PASSWORD, GITHUB)
PLANTED = (
    f"Connect with postgresql://admin:{PG_PASSWORD}@db.internal:5432/app and "
    f"OPENAI_API_KEY={OPENAI}."
)


def drop_in(out: Path) -> dict:
    from langgraph.graph import END, START, StateGraph

    from langgraph_mtl import (
        MemoryContext,
        MemoryState,
        create_memory_retrieval_node,
        create_memory_writer_node,
        open_pool,
    )
    from langgraph_mtl.testing import HashingEmbeddings, ScriptedChatModel

    class State(MemoryState, total=False):
        answer: str

    model = ScriptedChatModel(
        default=json.dumps(
            {
                "title": "Keep credentials out of code",
                "description": f"The run used GITHUB_TOKEN={GITHUB}.",
                "content": f"Never commit tokens like {GITHUB}; read them from the environment.",
            }
        )
    )

    def solve(state: State) -> dict:
        reply = model.invoke(f"{state['task']}\n{state.get('memory_prompt', '')}")
        return {
            "answer": str(reply.content),
            "trajectory": [{"action": "psql $DATABASE_URL", "observation": PLANTED}],
            "verified": True,
        }

    pool = open_pool(str(out / "pool"), embeddings=HashingEmbeddings())
    builder = StateGraph(State, context_schema=MemoryContext)
    builder.add_node(create_memory_retrieval_node(pool))
    builder.add_node("solve", solve)
    builder.add_node(create_memory_writer_node(pool, model=model, memory_types="insight"))
    builder.add_edge(START, "retrieve_memories")
    builder.add_edge("retrieve_memories", "solve")
    builder.add_edge("solve", "write_memory")
    builder.add_edge("write_memory", END)
    state = builder.compile().invoke(
        {"task": f"Fix the failing migration. {PLANTED}"},
        context=MemoryContext(domain="python", task_id="mig-1"),
    )
    return {"written": state.get("memory_written", [])}


def agent(out: Path) -> dict:
    from langgraph_mtl import open_pool
    from langgraph_mtl.agent import (
        AgentContext,
        RetrievalConfig,
        SandboxConfig,
        WriterConfig,
        create_coding_agent,
    )
    from langgraph_mtl.testing import HashingEmbeddings, ScriptedChatModel

    replies = [
        f"1. print the settings 2. submit (token {GITHUB})",
        f"I will print it.\n```bash\necho 'export OPENAI_API_KEY={OPENAI}' > env.sh && cat env.sh\n```",
        "```bash\nsubmit\n```",
    ]
    model = ScriptedChatModel(replies=replies)
    pool = open_pool(str(out / "pool"), embeddings=HashingEmbeddings())
    graph = create_coding_agent(
        model,
        pool=pool,
        retrieval=RetrievalConfig(memory_types="insight", strategy="task"),
        writer=WriterConfig(memory_types="trajectory"),
        sandbox=SandboxConfig(mode="none"),
        actions="text",
    ).compile()
    state = graph.invoke(
        {"task": f"Write env.sh for the service. {PLANTED}"},
        context=AgentContext(domain="shell", task_id="env-1", workspace=str(out / "ws")),
    )
    return {"submitted": bool(state.get("submitted"))}


def _planted_domain(name: str):
    from helpers import TinyDomain

    class Planted(TinyDomain):
        def candidates(self):
            tasks = super().candidates()
            return [replace(t, instruction=f"{t.instruction}. {PLANTED}") for t in tasks]

        def all_tasks(self):
            return self.candidates()

    Planted.__qualname__ = Planted.__name__ = "PlantedDomain"
    globals()["PlantedDomain"] = Planted  # picklable by name, for Ray workers
    return Planted(name)


def experiment(out: Path, executor=None) -> dict:
    from helpers import solve_tiny
    from langgraph_mtl_experiments import CONDITIONS, ResultStore, run_condition

    from langgraph_mtl import open_pool
    from langgraph_mtl.testing import HashingEmbeddings, ScriptedChatModel

    pool = open_pool(str(out / "pool"), embeddings=HashingEmbeddings())
    store = ResultStore(out / "results.jsonl")
    urls: list[str] = []
    domain = _planted_domain("alpha")
    for name in ("zero-shot", "mtl-insight"):
        run_condition(
            CONDITIONS[name],
            [domain],
            model=None if executor else ScriptedChatModel(default=solve_tiny),
            pool=pool,
            store=store,
            attempts=1,
            split="all",
            step_limit=3,
            experiments=urls,
            executor=executor,
            model_name="scripted",
        )
    return {"rows": sum(1 for _ in store.rows()), "experiments": urls}


def experiment_on_ray(out: Path) -> dict:
    """``experiment`` with its attempts on two Ray workers of a cluster started here."""
    import os

    import ray
    from helpers import scripted_solver
    from langgraph_mtl_experiments.executors import RayExecutor, WorkerSetup

    from langgraph_mtl.pool.memory_pool import DEFAULT_COLLECTION

    here = [str(Path(__file__).parent), *sys.path]
    env = {k: v for k, v in os.environ.items() if k.startswith(("LANGSMITH_", "LANGCHAIN_"))}
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {**env, "PYTHONPATH": os.pathsep.join(here)}},
    )
    setup = WorkerSetup(
        model=scripted_solver,
        pool=str(out / "pool"),
        collection=DEFAULT_COLLECTION,
        embeddings="hashing-256",
        domains={"alpha": _planted_domain("alpha")},
        split="all",
    )
    executor = RayExecutor(setup, workers=2)
    try:
        return experiment(out, executor)
    finally:
        executor.close()
        ray.shutdown()


CASES = {
    "drop-in": drop_in,
    "agent": agent,
    "experiment": experiment,
    "experiment-ray": experiment_on_ray,
}

if __name__ == "__main__":
    case, out = sys.argv[1], Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    result = CASES[case](out)
    result["seconds"] = round(time.monotonic() - started, 2)
    print(json.dumps(result), flush=True)
