"""Measure transfer with an agent of your own: a tiny graph (retrieve memories, one model call
that writes the solution file, write a memory) run through two conditions, zero-shot and
mtl-insight, on the example task file, offline with a scripted model.

    python examples/custom_agent.py

The same from the command line, with any model: ``mtl experiment run --agent
mymodule:build --tasks examples/own_tasks/tasks.jsonl --domains "" ...``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph_mtl_experiments import CONDITIONS, ResultStore, run_condition
from langgraph_mtl_experiments.attempts import AgentSettings
from langgraph_mtl_experiments.task_files import TaskFileDomain

from langgraph_mtl import MemoryState, open_pool
from langgraph_mtl.agent import AgentContext
from langgraph_mtl.nodes.retrieval_node import create_memory_retrieval_node
from langgraph_mtl.nodes.writer_node import create_memory_writer_node
from langgraph_mtl.testing import HashingEmbeddings, ScriptedChatModel

TASKS = Path(__file__).parent / "own_tasks" / "tasks.jsonl"
ANSWERS = {  # what the scripted model writes, by a word of the task
    "count.sh": ("count.sh", "wc -w < notes.txt\n"),
    "config.json": ("config.json", '{"host": "localhost", "port": 8080, "debug": true}\n'),
    "calc.py": ("calc.py", "def add(a, b):\n    return a + b\n"),  # loses mean(): fails
}


class State(MemoryState, total=False):
    answer: str


def build(*, model: Any, pool: Any, retrieval: Any, writer: Any, sandbox: Any, limits: Any) -> Any:
    """The agent: retrieve memories, write the solution file in one reply, write a memory."""

    def solve(state: State, runtime: Runtime[AgentContext]) -> dict[str, Any]:
        reply = str(model.invoke(f"{state.get('memory_prompt', '')}\n{state['task']}").content)
        path, _, content = reply.partition("\n")
        workspace = Path(runtime.context.workspace or ".")
        (workspace / path).write_text(content)
        return {"answer": reply, "trajectory": [{"action": f"write {path}", "observation": "ok"}]}

    builder = StateGraph(State, context_schema=AgentContext)
    builder.add_node(create_memory_retrieval_node(pool, retrieval, model=model))
    builder.add_node("solve", solve)
    builder.add_node(create_memory_writer_node(pool, writer))
    builder.add_edge(START, "retrieve_memories")
    builder.add_edge("retrieve_memories", "solve")
    builder.add_edge("solve", "write_memory")
    builder.add_edge("write_memory", END)
    return builder


def answer(messages: list[Any]) -> str:
    text = str(messages[-1].content)
    for word, (path, content) in ANSWERS.items():
        if word in text:
            return f"{path}\n{content}"
    return "answer.txt\nI do not know.\n"


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        pool = open_pool(str(out / "pool"), embeddings=HashingEmbeddings())
        store = ResultStore(out / "results.jsonl")
        domain = TaskFileDomain(TASKS)
        settings = AgentSettings(factory=build, hide=(str(domain.folder),))
        for name in ("zero-shot", "mtl-insight"):
            run_condition(
                CONDITIONS[name],
                [domain],
                model=ScriptedChatModel(default=answer),
                pool=pool,
                store=store,
                attempts=1,
                agent=settings,
            )
        for row in store.rows():
            print(f"{row['condition']:<12} {row['task_id']:<12} passed={row['passed']}")


if __name__ == "__main__":
    main()
