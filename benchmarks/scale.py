"""The memory nodes at growing pool sizes, each next to the index's own speed in the same run.

For each size: the retrieval node's latency (leave-one-domain-out, insight memories, top 3)
against the limit it can approach (the same query embedded, plus an unfiltered query of the
index the node asks); its recall@3 against brute force over the stored vectors; and the writer
node's own cost (everything but a model call: a trajectory memory needs none).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from langgraph.graph import END, START, StateGraph
from rich.console import Console
from rich.progress import Progress

from benchmarks.data import DOMAINS, TYPES, memory_texts, noisy_vectors, records
from langgraph_mtl import (
    MemoryContext,
    MemoryState,
    MemoryType,
    create_memory_retrieval_node,
    create_memory_writer_node,
    open_pool,
)
from langgraph_mtl.pool.embeddings import MiniLMEmbeddings

OWN = "rust"  # the task's domain, left out


@dataclass
class SizeResult:
    size: int
    node_p50_ms: float
    node_p95_ms: float
    limit_p50_ms: float
    ratio: float
    recall_at_3: float
    writer_p50_ms: float


def percentiles(samples: list[float]) -> tuple[float, float]:
    ms = sorted(s * 1000 for s in samples)
    return statistics.median(ms), ms[int(0.95 * (len(ms) - 1))]


def timed(fn: Callable[[Any], object], inputs: list[Any]) -> list[float]:
    for item in inputs[:5]:
        fn(item)  # warm up
    samples = []
    for item in inputs:
        start = time.perf_counter()
        fn(item)
        samples.append(time.perf_counter() - start)
    return samples


def _retrieval_graph(pool: Any) -> Any:
    builder = StateGraph(MemoryState, context_schema=MemoryContext)
    builder.add_node(create_memory_retrieval_node(pool, memory_types=["insight"]))
    builder.add_edge(START, "retrieve_memories")
    builder.add_edge("retrieve_memories", END)
    return builder.compile()


def _recall(
    pool: Any, vectors: np.ndarray, kinds: np.ndarray, domains: np.ndarray, queries: np.ndarray
) -> float:
    """Share of the node's top 3 as near as the exact third nearest (ties count)."""
    eligible = (kinds == TYPES.index(MemoryType.INSIGHT)) & (domains != DOMAINS.index(OWN))
    pool_vectors = vectors[eligible]
    found = 0
    for q in queries:
        exact = np.sort(pool_vectors @ q)[-3:]
        hits = pool.search(q.tolist(), k=3, exclude_domains=OWN, memory_types=["insight"])
        found += sum(h.similarity >= float(exact[0]) - 1e-5 for h in hits)
    return found / (3 * len(queries))


def _writer_cost(pool: Any, runs: int = 40) -> float:
    writer = create_memory_writer_node(pool, memory_types="trajectory")

    class Runtime:
        context = MemoryContext(domain="python", task_id="bench")

    def write(i: int) -> object:
        state = {
            "task": f"Write sum_list in sums.py (benchmark run {i})",
            "trajectory": [
                {"action": "write_file sums.py", "observation": "wrote 3 lines"},
                {"action": "python -m pytest -q", "observation": f"{i} passed"},
            ],
            "verified": True,
        }
        return writer(state, Runtime())

    return percentiles(timed(write, list(range(runs))))[0]


def run_sizes(sizes: list[int], queries: list[str], console: Console) -> list[SizeResult]:
    """Grow one pool through ``sizes`` and measure at each."""
    embedder = MiniLMEmbeddings()
    loader = MiniLMEmbeddings(threads=2)
    texts = memory_texts(4000, seed=3)
    base = np.asarray(loader.embed_array(texts), dtype=np.float32)
    query_vectors = np.asarray(loader.embed_array(queries), dtype=np.float32)
    total = max(sizes)
    vectors = np.empty((total, base.shape[1]), dtype=np.float32)
    kinds = np.empty(total, dtype=np.int8)
    domains = np.empty(total, dtype=np.int8)
    results = []
    with tempfile.TemporaryDirectory() as tmp, Progress(console=console) as progress:
        pool = open_pool(tmp, collection="bench", embeddings=embedder)
        graph = _retrieval_graph(pool)
        context = MemoryContext(domain=OWN)
        loaded = 0
        task = progress.add_task("loading", total=total)
        for size in sorted(sizes):
            while loaded < size:
                count = min(5000, size - loaded)
                batch = records(texts, loaded, count, seed=11)
                rows = noisy_vectors(base, loaded, count, seed=11)
                pool.store_vectors(batch, rows)
                vectors[loaded : loaded + count] = rows
                kinds[loaded : loaded + count] = [TYPES.index(r.memory_type) for r in batch]
                domains[loaded : loaded + count] = [DOMAINS.index(r.domain) for r in batch]
                loaded += count
                progress.update(task, completed=loaded, description=f"loading {size:,}")
            index = pool.collection.parts[MemoryType.INSIGHT]

            def limit(q: str, index: Any = index) -> object:
                vector = embedder.embed_query(q)
                return index.query(query_embeddings=[vector], n_results=3)

            # interleaved, so both see the same machine state
            node_samples: list[float] = []
            limit_samples: list[float] = []
            for q in queries[:5]:
                graph.invoke({"task": q}, context=context)
                limit(q)
            for q in queries:
                start = time.perf_counter()
                graph.invoke({"task": q}, context=context)
                node_samples.append(time.perf_counter() - start)
                start = time.perf_counter()
                limit(q)
                limit_samples.append(time.perf_counter() - start)
            node = percentiles(node_samples)
            raw = percentiles(limit_samples)
            recall = _recall(pool, vectors[:size], kinds[:size], domains[:size], query_vectors[:50])
            results.append(
                SizeResult(
                    size=size,
                    node_p50_ms=round(node[0], 2),
                    node_p95_ms=round(node[1], 2),
                    limit_p50_ms=round(raw[0], 2),
                    ratio=round(node[0] / raw[0], 2),
                    recall_at_3=round(recall, 3),
                    writer_p50_ms=round(_writer_cost(pool), 2),
                )
            )
            console.print(_line(results[-1]))
    return results


def _line(r: SizeResult) -> str:
    return (
        f"{r.size:>9,} memories | node p50 {r.node_p50_ms:6.2f} ms p95 {r.node_p95_ms:6.2f} ms"
        f" | index limit p50 {r.limit_p50_ms:6.2f} ms | node/limit {r.ratio:.2f}x"
        f" | recall@3 {r.recall_at_3:.3f} | writer node p50 {r.writer_p50_ms:6.2f} ms"
    )


def as_dicts(results: list[SizeResult]) -> list[dict[str, Any]]:
    return [asdict(r) for r in results]
