"""The pool through LangGraph's own memory surfaces: a store, a tool, a retriever, a review.

Runs offline: the default embedder is the offline MiniLM, the pool is an embedded Chroma in a
temporary directory, and no model is needed.

    python examples/native_surfaces.py
"""

from __future__ import annotations

import tempfile
from typing import Any, TypedDict

from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.runtime import Runtime
from langgraph.types import Command

from langgraph_mtl import MemoryContext, MemoryState, create_memory_writer_node, open_pool
from langgraph_mtl.nodes.memory_tool import create_search_memory_tool
from langgraph_mtl.pool.memory_pool import MemoryPool


class State(TypedDict, total=False):
    task: str
    advice: list[str]


def read_advice(state: State, runtime: Runtime[MemoryContext]) -> State:
    """A node that reads memories through ``runtime.store``, leaving its own domain out."""
    assert runtime.store is not None
    hits = runtime.store.search(
        ("memories",), query=state["task"], filter={"domain": {"$ne": "python"}}, limit=2
    )
    return {"advice": [f"[{h.value['domain']}] {h.value['content']}" for h in hits]}


def store_demo(pool: MemoryPool) -> None:
    store = pool.as_store()
    store.put(("memories", "rust", "insight"), "r1", {"content": "Run cargo test after each edit."})
    store.put(("memories", "shell", "insight"), "s1", {"content": "Check every exit status."})
    store.put(("memories", "python", "insight"), "p1", {"content": "Run pytest before submitting."})
    builder = StateGraph(State)
    builder.add_node("read_advice", read_advice)
    builder.add_edge(START, "read_advice")
    builder.add_edge("read_advice", END)
    out = builder.compile(store=store).invoke({"task": "run the tests after editing"})
    print("store: a python task reads", out["advice"])
    print("store: namespaces", store.list_namespaces(max_depth=2))


def tool_demo(pool: MemoryPool) -> None:
    search = create_search_memory_tool(pool, k=2)
    builder = StateGraph(MessagesState, context_schema=MemoryContext)
    builder.add_node("tools", ToolNode([search]))
    builder.add_edge(START, "tools")
    builder.add_edge("tools", END)
    call = {"name": "search_memory", "args": {"query": "tests keep failing"}, "id": "call-1"}
    out = builder.compile().invoke(
        {"messages": [AIMessage("", tool_calls=[call])]},
        context=MemoryContext(domain="rust", task_id="r9"),
    )
    receipts = out["messages"][-1].artifact
    print("tool: a rust run got memories from", sorted({r["domain"] for r in receipts}))


def retriever_demo(pool: MemoryPool) -> None:
    retriever = pool.as_retriever(k=2, exclude_domains=["shell"])
    docs = retriever.invoke("check the exit status")
    print("retriever:", [(d.metadata["domain"], d.page_content) for d in docs])


def review_demo(pool: MemoryPool) -> None:
    builder = StateGraph(MemoryState, context_schema=MemoryContext)
    builder.add_node(create_memory_writer_node(pool, memory_types="trajectory", review=True))
    builder.add_edge(START, "write_memory")
    builder.add_edge("write_memory", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "review-1"}}
    context = MemoryContext(domain="data", task_id="d1")
    run = {
        "task": "clean the prices column",
        "trajectory": [{"action": "python clean.py", "observation": "ok"}],
        "verified": True,
    }
    paused = graph.invoke(run, config, context=context)
    (shown,) = paused["__interrupt__"][0].value["memories"]
    print("review: asked about a", shown["memory_type"], "memory; pool holds", pool.count())
    edit = {"action": "edit", "memories": [{"id": shown["id"], "content": "Drop NaN prices."}]}
    out = graph.invoke(Command(resume=edit), config, context=context)
    stored = pool.get(out["memory_written"][0])
    assert stored is not None
    print("review: stored", repr(stored.content), "judged by", stored.judged_by.value)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pool = open_pool(f"{tmp}/pool", collection="surfaces")
        store_demo(pool)
        tool_demo(pool)
        retriever_demo(pool)
        review_demo(pool)


if __name__ == "__main__":
    main()
