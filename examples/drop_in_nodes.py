"""Drop the two memory nodes into your own LangGraph graph.

Runs offline: a scripted model stands in for the LLM, the default embedder is the offline
MiniLM, the pool is an embedded Chroma in a temporary directory. Two runs in the "python" and
"shell" domains write insights; a run in the "rust" domain then retrieves them (its own
domain is excluded) and shows the receipts.

    python examples/drop_in_nodes.py
"""

from __future__ import annotations

import json
import tempfile
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.graph import END, START, StateGraph

from langgraph_mtl import (
    MemoryContext,
    MemoryPool,
    MemoryState,
    create_memory_retrieval_node,
    create_memory_writer_node,
    open_pool,
)
from langgraph_mtl.testing import ScriptedChatModel


class State(MemoryState):
    answer: str


def build_graph(pool: MemoryPool, model: BaseChatModel) -> StateGraph:
    """retrieve_memories -> solve -> write_memory (uncompiled)."""

    def solve(state: State) -> dict[str, Any]:
        system = "You are a coding agent.\n\n" + state.get("memory_prompt", "")
        reply = model.invoke([SystemMessage(system), HumanMessage(state["task"])])
        step = {"thought": "", "action": str(reply.content), "observation": "tests passed"}
        return {"answer": str(reply.content), "trajectory": [step], "verified": True}

    builder = StateGraph(State, context_schema=MemoryContext)
    builder.add_node(create_memory_retrieval_node(pool))
    builder.add_node("solve", solve)
    builder.add_node(create_memory_writer_node(pool, model=model, memory_types="insight"))
    builder.add_edge(START, "retrieve_memories")
    builder.add_edge("retrieve_memories", "solve")
    builder.add_edge("solve", "write_memory")
    builder.add_edge("write_memory", END)
    return builder


def _insight(title: str, content: str) -> str:
    return json.dumps({"title": title, "description": "Any coding task.", "content": content})


def main() -> None:
    model = ScriptedChatModel(
        replies=[
            "pytest -q  # wrote add() and ran the tests",
            _insight("Run the tests after every change", "Run the suite, read failures, iterate."),
            "bash check.sh; echo $?",
            _insight("Check exit codes of commands", "A command that prints nothing may fail."),
            "cargo test",
            _insight("Compile and test before finishing", "Build, run tests, then submit."),
        ]
    )
    with tempfile.TemporaryDirectory() as tmp:
        pool = open_pool(tmp, collection="example")
        graph = build_graph(pool, model).compile()
        tasks = [
            ("python", "py-1", "Write a Python function add(a, b) and make its unit tests pass."),
            ("shell", "sh-1", "Write a shell script that counts lines in every .txt file."),
            ("rust", "rs-1", "Implement fibonacci in Rust and make cargo test pass."),
        ]
        for domain, task_id, task in tasks:
            out = graph.invoke(
                {"task": task}, context=MemoryContext(domain=domain, task_id=task_id)
            )
            print(
                f"[{domain}] retrieved {len(out['memory_receipts'])} memories "
                f"({out['memory_status']}); wrote {out['memory_written']}"
            )
            for r in out["memory_receipts"]:
                print(
                    f"    from {r['domain']:<7} {r['memory_type']:<8} {r['outcome']:<8} "
                    f"similarity {r['similarity']:.3f}"
                )
        print(f"pool now holds {pool.count()} memories")


if __name__ == "__main__":
    main()
