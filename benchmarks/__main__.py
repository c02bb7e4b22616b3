"""Speed benchmarks: `python -m benchmarks` (or `make bench`) prints the numbers.

1. the default embedder's throughput (sentences/s, 1 intra-op thread);
2. the retrieval node's p50/p95 latency at 10k and 100k memories, side by side with
   (a) a raw embed + chromadb query and (b) LangGraph's ``InMemoryStore`` semantic search,
   all three with the same embedder, the same query texts and the same leave-one-domain-out filter.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable

import numpy as np
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import PutOp
from langgraph.store.memory import InMemoryStore
from rich.console import Console
from rich.progress import track

from langgraph_mtl import (
    MemoryContext,
    MemoryRecord,
    MemoryState,
    create_memory_retrieval_node,
    open_pool,
)
from langgraph_mtl.memory.records import memory_id
from langgraph_mtl.pool.embeddings import MiniLMEmbeddings

console = Console()
DOMAINS = ["python", "rust", "verilog", "shell", "data", "repo", "ml", "sql"]
VERBS = ["run", "check", "inspect", "compile", "simulate", "profile", "test", "refactor", "read"]
OBJECTS = [
    "the unit tests",
    "the build log",
    "the schema",
    "the failing case",
    "the edge cases",
    "the dependency versions",
    "the exit code",
    "the waveform",
    "the stack trace",
]
ADVICE = [
    "before submitting",
    "after each edit",
    "when output is empty",
    "before optimising",
    "when the spec is ambiguous",
    "if the tests time out",
    "on a fresh checkout",
]


def _texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [
        f"{rng.choice(VERBS).capitalize()} {rng.choice(OBJECTS)} {rng.choice(ADVICE)} "
        f"({rng.choice(DOMAINS)} memory {i})"
        for i in range(n)
    ]


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ms = sorted(s * 1000 for s in samples)
    return statistics.median(ms), ms[int(0.95 * (len(ms) - 1))]


def _time(fn: Callable[[str], object], queries: list[str]) -> tuple[float, float]:
    for q in queries[:5]:
        fn(q)  # warm up
    samples = []
    for q in queries:
        start = time.perf_counter()
        fn(q)
        samples.append(time.perf_counter() - start)
    return _percentiles(samples)


def bench_embedder(embedder: MiniLMEmbeddings) -> None:
    texts = _texts(2000, seed=1)
    embedder.embed_array(texts[:64])
    start = time.perf_counter()
    embedder.embed_array(texts)
    rate = len(texts) / (time.perf_counter() - start)
    console.print(f"default embedder (MiniLM int8, 1 thread): [bold]{rate:.0f} sentences/s[/]")


def bench_retrieval(size: int, embedder: MiniLMEmbeddings, queries: list[str]) -> None:
    keys = _texts(size, seed=size)
    vectors = np.empty((size, embedder.dimension), dtype=np.float32)
    loader = MiniLMEmbeddings(threads=2)  # only to build the pool faster; queries use `embedder`
    for i in track(range(0, size, 5000), description=f"embedding {size} keys", console=console):
        vectors[i : i + 5000] = loader.embed_array(keys[i : i + 5000])
    records = [
        MemoryRecord(
            id=memory_id("insight", DOMAINS[i % len(DOMAINS)], f"t{i}", str(i)),
            memory_type="insight",
            domain=DOMAINS[i % len(DOMAINS)],
            task_id=f"t{i}",
            key=key,
            content=key,
        )
        for i, key in enumerate(keys)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        pool = open_pool(tmp, collection="bench", embeddings=embedder)
        batch = pool.client.get_max_batch_size()
        for i in track(
            range(0, size, batch), description=f"loading Chroma ({size})", console=console
        ):
            pool._upsert_vectors(records[i : i + batch], vectors[i : i + batch])

        builder = StateGraph(MemoryState, context_schema=MemoryContext)
        builder.add_node(create_memory_retrieval_node(pool, memory_types=["insight"]))
        builder.add_edge(START, "retrieve_memories")
        builder.add_edge("retrieve_memories", END)
        graph = builder.compile()
        context = MemoryContext(domain="rust")
        node = _time(lambda q: graph.invoke({"task": q}, context=context), queries)

        where = {"$and": [{"domain": {"$nin": ["rust"]}}, {"memory_type": {"$in": ["insight"]}}]}

        def raw(q: str) -> object:
            vec = embedder.embed_query(q)
            return pool.collection.query(query_embeddings=[vec], n_results=3, where=where)

        raw_times = _time(raw, queries)

    cache = {k: v.tolist() for k, v in zip(keys, vectors, strict=True)}
    store = InMemoryStore(
        index={
            "dims": 384,
            "fields": ["key"],
            "embed": lambda texts: [cache.get(t) or embedder.embed_query(t) for t in texts],
        }
    )
    for i in track(
        range(0, size, 2000), description=f"loading InMemoryStore ({size})", console=console
    ):
        store.batch(
            [
                PutOp(("memories",), r.id, {"key": r.key, "domain": r.domain}, index=["key"])
                for r in records[i : i + 2000]
            ]
        )
    store_times = _time(
        lambda q: store.search(("memories",), query=q, limit=3, filter={"domain": {"$ne": "rust"}}),
        queries,
    )
    console.print(
        f"{size:>7} memories | retrieval node p50 {node[0]:6.2f} ms p95 {node[1]:6.2f} ms | "
        f"raw embed+chroma p50 {raw_times[0]:6.2f} ms p95 {raw_times[1]:6.2f} ms | "
        f"InMemoryStore p50 {store_times[0]:7.2f} ms p95 {store_times[1]:7.2f} ms | "
        f"node/raw p50 {node[0] / raw_times[0]:.2f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10000,100000", help="pool sizes, comma-separated")
    parser.add_argument("--queries", type=int, default=200, help="queries per measurement")
    args = parser.parse_args()
    embedder = MiniLMEmbeddings()
    bench_embedder(embedder)
    queries = _texts(args.queries, seed=7)
    for size in (int(s) for s in args.sizes.split(",")):
        bench_retrieval(size, embedder, queries)


if __name__ == "__main__":
    main()
