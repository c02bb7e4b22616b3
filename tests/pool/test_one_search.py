"""One meaning of "search": the retrieval node, the memory tool, the LangChain retriever and the
store's search with a query give the same memories for the same run, through one search."""

from __future__ import annotations

import pytest
from helpers import make_record
from langchain_core.messages import AIMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.runtime import Runtime

from langgraph_mtl import MemoryContext
from langgraph_mtl.nodes.memory_tool import create_search_memory_tool
from langgraph_mtl.nodes.retrieval_node import create_memory_retrieval_node
from langgraph_mtl.pool.search import SearchConfig
from langgraph_mtl.pool.store import MemoryRetriever
from langgraph_mtl.transfer.retrieval import RetrievalConfig

QUERY = "validate the input before parsing the file"


@pytest.fixture
def stocked(pool):
    """Memories the search must leave out hold the query itself (they would come first)."""
    pool.upsert(
        [
            make_record("python", "p1", QUERY),  # the run's own domain
            make_record("rust", "t1", QUERY),  # the run's own task, in another domain
            make_record("rust", "r1", "validate the input before parsing the file"),
            make_record("shell", "s1", "validate input before parsing a file"),
            make_record("data", "d1", "parsing the file: validate the input"),
            make_record("go", "g1", "unrelated words about goroutines and channels"),
        ]
    )
    # written as an ordinary memory, then flagged: quarantine is one flag the search honours
    sneaky = make_record("verilog", "v1", QUERY)
    pool.upsert(sneaky)
    pool.update_flags(sneaky.id, {"quarantined": True})
    return pool


def _prefer_shell(pool, hits):
    """A scorer: lifts shell memories above their similarity."""
    return [0.5 if h.record.domain == "shell" else 0.0 for h in hits]


SETTINGS = {"k": 3, "memory_types": "insight", "min_similarity": 0.3, "scorers": (_prefer_shell,)}
CONTEXT = MemoryContext(domain="python", task_id="t1")


class State(MessagesState, total=False):
    task: str
    memory_receipts: list
    found: list


def _through_a_graph(pool, step, context=CONTEXT) -> list[str]:
    builder = StateGraph(State, context_schema=MemoryContext)
    builder.add_node("step", step)
    builder.add_edge(START, "step")
    builder.add_edge("step", END)
    graph = builder.compile(store=pool.as_store(SearchConfig(**SETTINGS)))
    out = graph.invoke({"task": QUERY, "messages": []}, context=context)
    return list(out["found"])


def via_node(pool, context=CONTEXT) -> list[str]:
    node = create_memory_retrieval_node(pool, RetrievalConfig(strategy="task", **SETTINGS))

    def step(state: State, runtime: Runtime[MemoryContext]) -> dict:
        out = node(state, runtime)
        return {"found": [r["id"] for r in out["memory_receipts"]]}

    return _through_a_graph(pool, step, context)


def via_tool(pool, context=CONTEXT) -> list[str]:
    tools = ToolNode([create_search_memory_tool(pool, **SETTINGS)])
    builder = StateGraph(State, context_schema=MemoryContext)
    builder.add_node("tools", tools)
    builder.add_edge(START, "tools")
    builder.add_edge("tools", END)
    call = {"name": "search_memory", "args": {"query": QUERY}, "id": "c1", "type": "tool_call"}
    out = builder.compile().invoke(
        {"messages": [AIMessage("", tool_calls=[call])]}, context=context
    )
    return [r["id"] for r in out["messages"][-1].artifact]


def via_retriever(pool, context=CONTEXT) -> list[str]:
    retriever = pool.as_retriever(**SETTINGS)

    def step(state: State) -> dict:
        return {"found": [d.id for d in retriever.invoke(QUERY)]}

    return _through_a_graph(pool, step, context)


def via_store(pool, context=CONTEXT) -> list[str]:
    def step(state: State, runtime: Runtime[MemoryContext]) -> dict:
        found = runtime.store.search(("memories",), query=QUERY, limit=3)
        return {"found": [item.key for item in found]}

    return _through_a_graph(pool, step, context)


def test_every_read_path_gives_the_same_memories_for_the_same_run(stocked):
    expected = [
        h.record.id
        for h in stocked.search(QUERY, SearchConfig(**SETTINGS), domain="python", task_id="t1")
    ]
    found = {
        surface.__name__: surface(stocked)
        for surface in (via_node, via_tool, via_retriever, via_store)
    }
    assert all(ids == expected for ids in found.values()), found
    domains = [stocked.get(i).domain for i in expected]
    assert domains[0] == "shell"  # the scorer's bonus ranks it first
    assert "python" not in domains  # leave-one-domain-out
    assert "go" not in domains  # below the relevance gate
    assert "verilog" not in domains  # quarantined
    assert all(stocked.get(i).task_id != "t1" for i in expected)  # leave-one-task-out
    assert len(expected) == 3


def test_a_runs_own_k_and_gate_narrow_every_read_path_alike(stocked):
    narrowed = MemoryContext(domain="python", task_id="t1", k=2, min_similarity=0.5)
    expected = [
        h.record.id
        for h in stocked.search(
            QUERY, SearchConfig(**{**SETTINGS, "k": 2, "min_similarity": 0.5}), domain="python",
            task_id="t1",
        )
    ]  # fmt: skip
    found = {
        surface.__name__: surface(stocked, narrowed)
        for surface in (via_node, via_tool, via_retriever, via_store)
    }
    assert all(ids == expected for ids in found.values()), found
    assert len(expected) == 2


def test_outside_a_run_the_retriever_and_the_store_apply_only_their_own_settings(stocked):
    retriever = stocked.as_retriever(k=5, exclude_domains=["data"])
    domains = {d.metadata["domain"] for d in retriever.invoke(QUERY)}
    assert "data" not in domains
    alone = stocked.as_retriever(k=5, exclude_domains="data")  # one domain, not its letters
    assert {d.metadata["domain"] for d in alone.invoke(QUERY)} == domains
    assert MemoryRetriever(pool=stocked, exclude_domains="data").exclude_domains == ("data",)
    assert {"python", "rust"} <= domains  # no run context: no run to leave out
    assert "verilog" not in domains  # quarantined memories never
